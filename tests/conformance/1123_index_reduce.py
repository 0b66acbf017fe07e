# index_reduce: prod/mean/amax/amin of whole rows or columns, with and without self.
import torch

base = torch.tensor(
    [[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 2.0, 5.0], [4.0, 4.0, 0.0, 1.0]], dtype=torch.float64
)
rows = torch.tensor(
    [[0.0, 2.0, 3.0, 0.0], [2.0, 2.0, 0.0, 5.0], [4.0, 1.0, 0.0, 0.0]], dtype=torch.float64
)
w = torch.arange(12.0, dtype=torch.float64).reshape(3, 4)

for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        x = base.clone().requires_grad_()
        src = rows.clone().requires_grad_()
        y = x.index_reduce(0, torch.tensor([0, 0, 2]), src, reduce, include_self=include_self)
        (y * w).sum().backward()
        print(reduce, include_self, type(y.grad_fn).__name__)
        print(y.detach(), x.grad, src.grad, sep="\n")

x = base.clone().requires_grad_()
cols = torch.tensor([[1.5, -2.0], [0.5, 3.0], [2.0, 2.0]], dtype=torch.float64, requires_grad=True)
y = torch.index_reduce(x, 1, torch.tensor([3, 3]), cols, "mean", include_self=False)
gx, gc = torch.autograd.grad(y.pow(2).sum(), (x, cols), create_graph=True)
print(y, gx, gc, torch.autograd.grad(gc.sum(), cols)[0], sep="\n")

y = x * 1
out = y.index_reduce_(1, torch.tensor([1, 0]), cols, "amax")
print(out is y, type(y.grad_fn).__name__, y)
print(
    torch.tensor([[5, 2], [3, 8]]).index_reduce(
        0, torch.tensor([1, 1]), torch.tensor([[4, 4], [6, 1]]), "mean"
    )
)

checks = [
    lambda: base.index_reduce(0, torch.tensor([0]), rows[:1], "sum"),
    lambda: base.index_reduce(0, torch.tensor([0.0]), rows[:1], "prod"),
    lambda: base.index_reduce(0, torch.tensor([3]), rows[:1], "prod"),
    lambda: base.index_reduce(0, torch.tensor([-1]), rows[:1], "prod"),
    lambda: base.index_reduce(0, torch.tensor([0, 1]), rows, "prod"),
    lambda: base.index_reduce(0, torch.tensor([0]), rows[:1, :3], "prod"),
    lambda: base.index_reduce(0, torch.tensor([0]), rows[:1].float(), "prod"),
    lambda: base.index_reduce(0, torch.tensor([[0]]), rows[:1], "prod"),
]
for check in checks:
    try:
        check()
        print("no error")
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
