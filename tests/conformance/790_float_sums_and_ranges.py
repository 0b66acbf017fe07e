# Sums, means and losses print PyTorch's values (to float rounding); linspace fills from both
# ends and arange by vector lanes as PyTorch's kernels do (both visible in printed values), and
# x**2, x**3, x**-1 are products. (Sums that cancel to ~0 are left out: their last bits depend
# on the order of the adds, which PyTorch does not fix.)
import math

import torch

print(torch.arange(-1, 1, 0.1))
print(torch.arange(-2.0, 2.0, 0.2, dtype=torch.float64)[8:12])

x = torch.linspace(-math.pi, math.pi, 2000)
print(x[997:1003].tolist())
print(x.abs().sum().item(), x.abs().mean().item(), (x * x).sum().item())
y = torch.tanh(x)
print((y * y).sum().item(), (x**3)[1000:].sum().item(), (x**2).mean().item())

r = torch.arange(-3.2, 7.7, 0.013)
print(r.shape, r[100:104].tolist(), r.sum().item())
r64 = torch.arange(0.5, 100.3, 0.37, dtype=torch.float64)
print(r64.sum().item(), r64.mean().item())
print(torch.linspace(0.1, 0.7, 37, dtype=torch.float64).sum().item())

w = torch.linspace(-1, 1, 1600).reshape(100, 16)
print(w.sum(0)[:4].tolist())
print(w.sum(1)[:4].tolist())
print(
    w.abs().sum(dim=(0, 1)).item(), w.t().sum(0)[:3].tolist(), w.mean(1, keepdim=True)[:2].tolist()
)

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
