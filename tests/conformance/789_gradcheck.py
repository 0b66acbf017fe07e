import torch
from torch.autograd import gradcheck, gradgradcheck

x = torch.tensor([0.3, -0.7, 1.2], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda t: (t.sin() * t.exp()).sum(), (x,)))
print(gradcheck(torch.tanh, (x,), eps=1e-6, atol=1e-4))
print(gradgradcheck(lambda t: (t**3).sum(), (x,)))
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda a, b: a @ b, (y, y)))
print(torch.autograd.gradcheck(lambda t: t.abs(), (x,)))
