import warnings

import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([[0.0, 1.0, -1.0], [2.0, 0.5, 1.0]], requires_grad=True)
y = torch.cross(a, b, dim=1)
print(y, y.grad_fn._saved_dim)
ga, gb = torch.autograd.grad(y.sum(), [a, b], create_graph=True)
print(ga)
print(gb)
y = torch.linalg.cross(a, b)
print(y.grad_fn.name(), y.grad_fn._saved_dim, a.cross(b, dim=-1).grad_fn._saved_dim)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.cross(torch.ones(3, 3), torch.eye(3)))
    print(len(caught), caught[0].category.__name__ if caught else None)
print(torch.cross(torch.tensor([[1.0, 0.0, 0.0]]), torch.eye(3), dim=1))
print(torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([0, 1, 0])))

x = torch.tensor(
    [[0.5, -1.0, 2.0, float("-inf")], [1.0, 1.0, float("inf"), 0.0]], requires_grad=True
)
y = torch.logcumsumexp(x, 1)
print(y, y.grad_fn._saved_dim)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
x2 = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
y = x2.logcumsumexp(-1)
(g,) = torch.autograd.grad(
    y, x2, torch.tensor([1.0, -2.0, 0.5, 1.0], dtype=torch.float64), create_graph=True
)
print(y, g)
print(torch.autograd.grad(g.sum(), x2))
x3 = torch.tensor([float("-inf"), -1.0, float("-inf")], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(
    torch.logcumsumexp(x3, 0), x3, torch.tensor([1.0, 0.0, -2.0], dtype=torch.float64)
)
print(g)
print(
    torch.logcumsumexp(torch.tensor([1000.0, 1000.0, -1000.0]), 0),
    torch.logcumsumexp(torch.tensor(1.5), 0),
)
print(torch.logcumsumexp(torch.ones(0, 2), 0))

for bad in [
    lambda: torch.linalg.cross(torch.ones(2, 4), torch.ones(2, 4)),
    lambda: torch.cross(torch.ones(2, 3), torch.ones(2, 3), dim=0),
    lambda: torch.linalg.cross(torch.ones(3), torch.ones(2, 3)),
    lambda: torch.linalg.cross(torch.ones(2, 3), torch.ones(2, 3), dim=2),
    lambda: torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([0.0, 1, 0])),
    lambda: torch.linalg.cross(torch.tensor(1.0), torch.tensor(2.0)),
    lambda: torch.linalg.cross(
        torch.tensor([True, False, True]), torch.tensor([True, True, False])
    ),
    lambda: torch.cross(torch.ones(2, 4), torch.ones(2, 4)),
    lambda: torch.logcumsumexp(torch.tensor([1, 2, 3]), 0),
    lambda: torch.logcumsumexp(torch.tensor([1.0, 2.0])),
    lambda: torch.logcumsumexp(torch.ones(2), 1),
]:
    try:
        bad()
    except (RuntimeError, TypeError, IndexError, NotImplementedError) as e:
        print(type(e).__name__ + ":", e)
