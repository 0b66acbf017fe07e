# Index ops on 0-d tensors and in float32: values, gradients, dtypes, errors.
import torch

x = torch.tensor(2.0, requires_grad=True)
v = torch.tensor(3.0, requires_grad=True)
cases = [
    lambda: x.index_add(0, torch.tensor([0]), v, alpha=2),
    lambda: x.index_add(0, torch.tensor([0]), v.reshape(1)),
    lambda: x.index_add(0, torch.tensor([1]), v),
    lambda: x.index_fill(0, torch.tensor([-1, 0]), 3.0),
    lambda: x.index_fill(0, torch.tensor([0]), v),
    lambda: x.index_fill(0, torch.tensor([1]), v),
    lambda: x.index_copy(0, torch.tensor([0]), v.reshape(1)),
    lambda: x.index_copy(0, torch.tensor([0]), v),
    lambda: x.index_copy(0, torch.tensor([-1]), v),
    lambda: x.index_reduce(0, torch.tensor([0]), v, "prod"),
    lambda: x.index_reduce(0, torch.tensor([0]), v, "mean", include_self=False),
    lambda: x.index_reduce(0, torch.tensor([0]), v, "amax"),
    lambda: x.masked_scatter(torch.tensor(True), v.reshape(1, 1)),
    lambda: x.masked_scatter(torch.tensor(False), v.reshape(1, 1)),
    lambda: x.scatter_reduce(0, torch.tensor(0), v, "sum"),
]
for f in cases:
    try:
        y = f()
        print(y, torch.autograd.grad(y * 5, (x, v), allow_unused=True))
    except Exception as e:
        print(type(e).__name__, e)

x = torch.tensor([[1.0, 2.0, 3.0, 2.5], [0.5, 2.0, 1.5, 5.0]], requires_grad=True)
s = torch.tensor([[0.5, 2.0, 3.0], [2.5, 2.0, 0.0]], requires_grad=True)
for r in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        y = x.scatter_reduce(1, torch.tensor([[0, 1, 0], [2, 2, 1]]), s, r, include_self=inc)
        gx, gs = torch.autograd.grad((y * y).sum(), (x, s))
        print(r, inc, y, gx, gs)
        if r != "sum":
            y = x.index_reduce(1, torch.tensor([0, 0, 3]), s, r, include_self=inc)
            gx, gs = torch.autograd.grad((y * y).sum(), (x, s))
            print(r, inc, y, gx, gs)
y = x.index_add(1, torch.tensor([3, 3, 0]), s, alpha=0.5)
print(y, torch.autograd.grad(y.sum(), s))
