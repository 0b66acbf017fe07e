import torch

x = torch.tensor([3.0, 4.0], requires_grad=True)
n = x.norm()
print(n)
n.backward()
print(x.grad)
print(n.grad_fn.name())

y = torch.tensor([[1.0, -2.0], [2.0, 4.0]], requires_grad=True)
m = torch.norm(y)
print(m)
m.backward()
print(y.grad)
