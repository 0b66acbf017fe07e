import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.sum().backward()
print(y.grad)
print(x.grad)
print(y.is_leaf, y.retains_grad)
