import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
c = x.cumsum(1)
print(c)
print(c.grad_fn.name())
c.sum().backward()
print(x.grad)
x.grad = None
p = torch.cumprod(x, dim=0)
print(p)
print(p.grad_fn.name())
p.sum().backward()
print(x.grad)
y = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
y.cumprod(0).sum().backward()
print(y.grad)
print(torch.tensor([1, 2, 3]).cumsum(0))
