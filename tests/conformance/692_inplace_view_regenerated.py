import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 1
head = y[:2]
tail = y[2:]
mid = y[1:3]
tail.mul_(3)
print(type(head.grad_fn).__name__, type(mid.grad_fn).__name__, type(tail.grad_fn).__name__)
print(mid)
(head.sum() + mid.sum() * 10).backward()
print(x.grad)

x.grad = None
y = x * 1
v = y.view(2, 2)
v[0, 1] = 100.0
print(y, v)
print(type(v.grad_fn).__name__, y.grad_fn.name())
y.pow(2).sum().backward()
print(x.grad)
