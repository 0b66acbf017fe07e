# Index ops: mixed dtypes, integer tensors, next_functions, in-place versions and no_grad.
import torch


def names(fn):
    return [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]


x = torch.ones(2, 3, requires_grad=True)
v = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
y = x.index_fill(1, torch.tensor([0]), v)
print(y, names(y.grad_fn))
y.sum().backward()
print(v.grad, x.grad)

y = x * 1
y.index_fill_(1, torch.tensor([0, 2]), v)
print(y, y.dtype, names(y.grad_fn))
v.grad = None
x.grad = None
y.pow(2).sum().backward()
print(v.grad, x.grad)

a = torch.zeros(2, 2, dtype=torch.int64)
print(
    a.index_fill(0, torch.tensor([1]), 2.7), a.index_fill(0, torch.tensor([1]), torch.tensor(-2.7))
)
print(torch.zeros(2, 2).index_add(0, torch.tensor([1, 1]), torch.ones(2, 2), alpha=3))
print(a.index_add(0, torch.tensor([1, 1]), torch.ones(2, 2, dtype=torch.int64), alpha=3))
b = torch.zeros(2, 2, dtype=torch.int64)
b.index_fill_(0, torch.tensor([1]), torch.tensor(3.9))
print(b)

z = x * 2
w = z.index_add(1, torch.tensor([2]), x[:, :1])
print(names(w.grad_fn), w.is_leaf, w.requires_grad)
r = z.scatter_reduce(0, torch.tensor([[1, 0, 1]]), x[:1], "mean")
print(names(r.grad_fn), names(z.masked_scatter(z > 1, x).grad_fn))
with torch.no_grad():
    print(x.index_copy(0, torch.tensor([1, 0]), x * 3).requires_grad)
x2 = torch.zeros(2, 3)
print(x2._version)
x2.index_add_(0, torch.tensor([0]), torch.ones(1, 3))
x2.index_copy_(1, torch.tensor([1]), torch.full((2, 1), 4.0))
x2.masked_scatter_(x2 == 0, torch.arange(6.0))
x2.scatter_reduce_(1, torch.tensor([[0], [0]]), torch.tensor([[10.0], [-10.0]]), "amax")
print(x2, x2._version)
