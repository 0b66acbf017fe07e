# out= on index_select, gather, scatter, scatter_add, scatter_reduce, index_add, index_copy,
# index_reduce: out's dtype must be the input's.
import torch

m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
idx = torch.tensor([2, 0])
print(torch.index_select(m, 0, idx, out=torch.empty(0)))
print(torch.index_select(m, 1, idx, out=torch.empty(0)))
g = torch.tensor([[0, 2], [1, 1], [2, 0]])
print(torch.gather(m, 1, g, out=torch.empty(0)))
s = torch.tensor([[0, 1, 2], [2, 0, 1]])
src = torch.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
print(torch.scatter(m, 0, s, src, out=torch.empty(0)))
print(torch.scatter(m, 0, s, -1.0, out=torch.empty(0)))
print(torch.scatter_add(m, 0, s, src, out=torch.empty(0)))
print(torch.scatter_reduce(m, 0, s, src, "amax", out=torch.empty(0)))
print(torch.scatter_reduce(m, 0, s, src, "sum", include_self=False, out=torch.empty(0)))
print(torch.index_add(m, 0, idx, src[:, :3], out=torch.empty(0)))
print(torch.index_add(m, 1, idx, m[:, :2], alpha=2, out=torch.empty(0)))
print(torch.index_copy(m, 0, idx, src, out=torch.empty(0)))
print(torch.index_reduce(m, 0, idx, src, "prod", out=torch.empty(0)))
print(m)

for name, fn, args in [
    ("index_select", torch.index_select, (m, 0, idx)),
    ("gather", torch.gather, (m, 1, g)),
    ("scatter_add", torch.scatter_add, (m, 0, s, src)),
    ("index_add", torch.index_add, (m, 0, idx, src)),
]:
    try:
        fn(*args, out=torch.empty(0, dtype=torch.float64))
    except RuntimeError as error:
        print(name, "RuntimeError:", error)
