import torch

x = torch.ones(3)
print(x._version)
x += 1
print(x._version)
x.mul_(2)
x.zero_()
print(x._version)
v = x.view(3)
v.add_(1)
print(x._version, v._version)
x[0] = 5.0
print(x._version)
y = torch.ones(2, requires_grad=True)
z = y * 2
print(z._version)
z.add_(1)
print(z._version)
with torch.no_grad():
    y.add_(1)
print(y._version)
y.data.add_(1)
print(y._version)
