import torch

print(torch.arange(1001))
print(torch.arange(2000.0))
print(torch.arange(1200.0).reshape(40, 30))
print(torch.zeros(100))
print(torch.arange(3000).reshape(3, 1000))
print(torch.ones(2000, requires_grad=True))
