import torch

m = torch.tensor([[4.0, 7.0], [2.0, 6.0]], requires_grad=True)
d = torch.det(m)
print(d)
print(d.grad_fn.name())
d.backward()
print(m.grad)
m.grad = None
inv = torch.inverse(m)
print(inv)
print(inv.grad_fn.name())
inv.sum().backward()
print(m.grad)
print(torch.linalg.det(m), torch.linalg.inv(m).grad_fn.name())
print(torch.allclose(m @ torch.linalg.inv(m), torch.eye(2), atol=1e-6))
s = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
try:
    torch.linalg.inv(s)
except RuntimeError as e:
    print(type(e).__name__, e)
