# Sums, means and losses print the digits PyTorch prints: float32 sums are added in PyTorch's
# order, linspace/arange count as its kernels do, and x**2, x**3, x**-1 are products.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
print(x[997:1003].tolist())
print(x.sum().item(), x.mean().item(), (x * x).sum().item())
y = torch.tanh(x)
print(y.sum().item(), (x**3).sum().item(), (x**2).mean().item())

r = torch.arange(-3.2, 7.7, 0.013)
print(r.shape, r[100:104].tolist(), r.sum().item())
r64 = torch.arange(0.5, 100.3, 0.37, dtype=torch.float64)
print(r64.sum().item(), r64.mean().item())
print(torch.linspace(0.1, 0.7, 37, dtype=torch.float64).sum().item())

w = torch.linspace(-1, 1, 1600).reshape(100, 16)
print(w.sum(0)[:4].tolist())
print(w.sum(1)[:4].tolist())
print(w.sum(dim=(0, 1)).item(), w.t().sum(0)[:3].tolist(), w.mean(1, keepdim=True)[:2].tolist())

inputs = torch.linspace(-2, 3, 300).reshape(100, 3).requires_grad_()
target = torch.linspace(0, 1, 300).reshape(100, 3)
loss = torch.nn.functional.mse_loss(inputs, target)
print(loss.item())
bias = torch.zeros(3, requires_grad=True)
out = ((inputs * 1.5 + bias) ** 2).mean()
out.backward()
print(out.item(), bias.grad.tolist())
print((inputs.detach() ** -1).sum().item(), (inputs.detach() ** -2)[0].tolist())

x = torch.linspace(-1, 1, 333)
print(x.sum(dtype=torch.float64).item(), x.sum(dtype=torch.float64).dtype)
print(torch.arange(10).sum(dtype=torch.float32), torch.arange(10).float().mean())
print(x.reshape(9, 37).sum(0, dtype=torch.float64)[:3].tolist())
