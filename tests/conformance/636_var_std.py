import torch

x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
print(x.var())
print(x.std())
print(x.var(1))
print(x.std(0))
print(x.var(1, unbiased=False))
print(x.std(dim=1, correction=0, keepdim=True))
v = x.var()
print(v.grad_fn.name(), x.std().grad_fn.name())
v.backward()
print(x.grad)
x.grad = None
x.std(1).sum().backward()
print(x.grad)
print(torch.tensor([1.0]).var())
