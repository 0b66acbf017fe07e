import torch

x = torch.arange(10.0, requires_grad=True)
print(x[-3])
print(x[-4:-1])
print(x[1:9:3])
print(x[:100])
print(x[8:2])
print(x[-100:2])
print(x[::4])
y = x[1:9:3] * torch.tensor([1.0, 2.0, 3.0])
y.sum().backward()
print(x.grad)
