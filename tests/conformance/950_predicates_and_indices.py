# Predicates and index-producing ops: isfinite/isinf/isposinf/isneginf/isreal, nonzero (as_tuple),
# argwhere, isin (invert, numbers), tril_indices/triu_indices, unravel_index; results are
# constants (no grad_fn) even for inputs that require grad
import torch

x = torch.tensor(
    [[1.0, float("inf"), 0.0], [-float("inf"), float("nan"), -2.5]], requires_grad=True
)
for name, fn, method in [
    ("isfinite", torch.isfinite, x.isfinite),
    ("isinf", torch.isinf, x.isinf),
    ("isposinf", torch.isposinf, x.isposinf),
    ("isneginf", torch.isneginf, x.isneginf),
    ("isreal", torch.isreal, x.isreal),
]:
    r = fn(x)
    print(name, r, r.dtype, r.requires_grad, method().equal(r))
print(torch.isinf(torch.tensor([1, 2])), torch.isfinite(torch.tensor(True)))

print(torch.nonzero(x))
print(x.nonzero(as_tuple=True))
print(torch.argwhere(x), x.argwhere().grad_fn)
print(torch.nonzero(torch.tensor(5.0)), torch.nonzero(torch.tensor(0.0), as_tuple=True))
idx = torch.nonzero(x.detach() > 0, as_tuple=True)
print(x.detach()[idx])

a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(torch.isin(a, torch.tensor([2, 5, 7])))
print(torch.isin(a, torch.tensor([2, 5, 7]), invert=True))
print(torch.isin(a, 3), torch.isin(4, a), torch.isin(a, 2.5))
print(torch.isin(torch.tensor([0.1, 0.2]), 0.1))
print(a[torch.isin(a, torch.tensor([[1], [6]]))])

print(torch.tril_indices(3, 3))
print(torch.triu_indices(3, 4, offset=1))
print(torch.tril_indices(4, 3, -1, dtype=torch.int32))
m = torch.arange(9.0).reshape(3, 3)
r, c = torch.triu_indices(3, 3)
print(m[r, c])

flat = torch.argmax(torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))
print(torch.unravel_index(flat, (2, 3)))
print(torch.unravel_index(torch.tensor([0, 5, 7, -1]), (2, 3)))

for bad in [
    lambda: torch.isin(torch.tensor([True]), torch.tensor([1])),
    lambda: torch.isin(a, torch.tensor([1]), out=torch.empty(2, 3)),
    lambda: torch.isposinf(x, out=torch.empty(2, 3)),
    lambda: torch.nonzero(a, out=torch.empty(0, dtype=torch.int32)),
    lambda: torch.tril_indices(-1, 2),
    lambda: torch.triu_indices(2, 2, dtype=torch.float32),
    lambda: torch.unravel_index(torch.tensor([1.0]), (2, 3)),
    lambda: torch.unravel_index(torch.tensor([1]), (2, -3)),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
