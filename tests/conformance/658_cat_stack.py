import torch

a = torch.tensor([[1.0, 2.0]], requires_grad=True)
b = torch.tensor([[3.0, 4.0], [5.0, 6.0]], requires_grad=True)
c = torch.cat([a, b])
print(c)
print(c.grad_fn.name())
(c * torch.tensor([[1.0], [2.0], [3.0]])).sum().backward()
print(a.grad)
print(b.grad)
print(torch.cat((a, a), dim=1))
print(torch.cat([a, b], 0).shape)
s = torch.stack([a[0], b[0], b[1]])
print(s)
print(s.grad_fn.name())
print(torch.stack([a[0], b[1]], dim=1))
print(torch.stack((torch.tensor(1.0), torch.tensor(2.0))))
try:
    torch.cat([a, b], dim=1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.stack([a, b])
except RuntimeError as e:
    print(type(e).__name__, e)
