import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
print(torch.log(x))
torch.log(x).sum().backward()
print(x.grad)
x.grad = None
print(x.sqrt())
x.sqrt().sum().backward()
print(x.grad)
x.grad = None
(x**0.5).sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
x.relu().sum().backward()
print(x.grad)
x.grad = None
(x / x).sum().backward()
print(x.grad)
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
