# scatter_reduce: sum/prod/mean/amax/amin with and without self, ties and zeros in the gradient.
import torch

base = torch.tensor(
    [[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 2.0, 5.0], [4.0, 4.0, 0.0, 1.0]], dtype=torch.float64
)
values = torch.tensor(
    [[0.0, 2.0, 3.0, 0.0], [2.0, 2.0, 0.0, 5.0], [4.0, 1.0, 0.0, 0.0]], dtype=torch.float64
)
index = torch.tensor([[0, 1, 0, 3], [2, 2, 1, 2], [3, 3, 3, 0]])
w = torch.arange(12.0, dtype=torch.float64).reshape(3, 4)

for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        x = base.clone().requires_grad_()
        src = values.clone().requires_grad_()
        y = x.scatter_reduce(1, index, src, reduce, include_self=include_self)
        (y * w).sum().backward()
        print(reduce, include_self, type(y.grad_fn).__name__)
        print(y.detach(), x.grad, src.grad, sep="\n")

# distinct values: second order, and the in-place form on a non-leaf
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float64, requires_grad=True)
src = torch.tensor([[2.0, -0.5], [0.75, 3.0]], dtype=torch.float64, requires_grad=True)
j = torch.tensor([[2, 2], [0, 2]])
for reduce in ["prod", "mean", "amax"]:
    y = torch.scatter_reduce(x, 1, j, src, reduce)
    gx, gs = torch.autograd.grad(y.pow(2).sum(), (x, src), create_graph=True)
    print(reduce, gx.detach(), gs.detach(), sep="\n")
    print(torch.autograd.grad((gx.sum() + gs.sum()), (x, src), allow_unused=True))
y = x * 1
out = y.scatter_reduce_(0, torch.tensor([[1, 0], [1, 1]]), src, "sum", include_self=False)
print(out is y, type(y.grad_fn).__name__, y)
y.sum().backward()
print(x.grad, src.grad)

# legacy names, integers, a smaller index than src
print(base.scatter_reduce(1, index, values, "max"), base.scatter_reduce(1, index, values, "min"))
a = torch.tensor([[4, 7, 1]])
print(a.scatter_reduce(1, torch.tensor([[0, 0, 2]]), torch.tensor([[3, 2, 4]]), "mean"))
print(
    a.scatter_reduce(
        1, torch.tensor([[1, 1]]), torch.tensor([[3, 9, 4]]), "prod", include_self=False
    )
)

checks = [
    lambda: base.scatter_reduce(1, index, values, "add"),
    lambda: base.scatter_reduce(1, index.float(), values, "sum"),
    lambda: base.scatter_reduce(1, torch.tensor([[0, 4]]), values, "sum"),
    lambda: base.scatter_reduce(1, torch.tensor([0, 1]), values, "sum"),
    lambda: base.scatter_reduce(1, index, values.float(), "sum"),
    lambda: base.scatter_reduce(1, torch.zeros(3, 5, dtype=torch.int64), values, "sum"),
    lambda: base.scatter_reduce(2, index, values, "sum"),
]
for check in checks:
    try:
        check()
        print("no error")
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
