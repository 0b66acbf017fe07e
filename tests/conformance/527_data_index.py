import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
print(x.data)
print(x.data[0])
print(x.data[0] > 0)
print(x.data.requires_grad)
x.data[0] = 5.0
print(x)
y = (x * x).sum()
y.backward()
print(x.grad)
print(x.grad.data)
x.data = torch.tensor([0.5, 0.5, 0.5])
print(x)
print(x[0])
print(x[1].item())
