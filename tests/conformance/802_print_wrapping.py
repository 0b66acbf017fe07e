import torch

print(torch.arange(30.0))
print(torch.arange(30))
print(torch.arange(30.0) / 7)
print(torch.arange(40.0).reshape(2, 20))
print(torch.arange(20.0, requires_grad=True) * 1.5)
print(torch.linspace(-1, 1, 17))
