import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], requires_grad=True)
w = torch.tensor([[0.1, 0.2, 0.3], [-0.3, 0.2, -0.1]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
out = F.linear(x, w, b)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)
print(w.grad)
print(b.grad)
print(F.linear(x, w))
print(F.linear(x, w).grad_fn.name())
print(F.linear(torch.ones(3), w, b))
