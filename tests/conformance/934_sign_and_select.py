import torch

a = torch.tensor([-2.0, 0.0, -0.0, 3.0, float("nan"), float("inf"), 1.5], requires_grad=True)
b = torch.tensor([1.0, -1.0, 2.0, -0.0, -3.0, -1.0, 0.0], requires_grad=True)
y = torch.copysign(a, b)
print(y)
ga, gb = torch.autograd.grad(y.sum(), [a, b])
print(ga, gb)
y = a.copysign(-1.0)
print(y, y.grad_fn.name())
(ga,) = torch.autograd.grad(y.sum(), a)
print(ga)
print(torch.copysign(torch.tensor([1, -2, 3]), torch.tensor([-1, 1, -1])))
print(
    torch.copysign(torch.tensor([1, -2, 3]), -1),
    torch.copysign(torch.ones(2, 1), torch.tensor([-1.0, 1.0, -0.0])),
)
h = torch.tensor([1.0, 2.0], requires_grad=True) * 1
print(h.copysign_(torch.tensor([-1.0, 1.0])), h.grad_fn.name())
print(torch.signbit(torch.tensor([-2.0, 0.0, -0.0, 3.0, float("nan"), float("-inf")])))
print(torch.signbit(torch.tensor([-2, 0, 3])), torch.tensor([True, False]).signbit())

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
m = torch.tensor([[True, False, True], [False, False, True]])
y = torch.masked_select(x, m)
print(y)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
print(x.masked_select(torch.tensor([True, False, True])))
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(g,) = torch.autograd.grad(torch.masked_select(x, m), x, v, create_graph=True)
print(g)
xx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
torch.masked_select(xx, torch.tensor([[True, False, True], [True, True, False]])).sum().backward()
print(xx.grad)
print(
    torch.masked_select(torch.tensor(2.0), torch.tensor(True)),
    torch.masked_select(x, torch.zeros(2, 3, dtype=torch.bool)),
)

y = torch.take(x, torch.tensor([[0, 5], [-1, 2]]))
print(y)
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(g,) = torch.autograd.grad(y, x, w, create_graph=True)
print(g)
print(
    torch.take(torch.tensor([[1, 2], [3, 4]]), torch.tensor([3, 0])),
    torch.take(torch.tensor(3.0), torch.tensor(0)),
)

for bad in [
    lambda: torch.copysign(2.0, torch.tensor([1.0])),
    lambda: torch.tensor([1, 2]).copysign_(-1.0),
    lambda: torch.masked_select(x, m.long()),
    lambda: torch.masked_select(x, torch.tensor([True, False])),
    lambda: torch.masked_select(x, True),
    lambda: torch.take(x, torch.tensor([6])),
    lambda: torch.take(x, torch.tensor([-7])),
    lambda: torch.take(x, torch.tensor([1.0])),
    lambda: torch.take(x, torch.tensor([1], dtype=torch.int32)),
    lambda: torch.take(torch.ones(0), torch.tensor([0])),
    lambda: x.take([1, 2]),
]:
    try:
        bad()
    except (RuntimeError, TypeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
