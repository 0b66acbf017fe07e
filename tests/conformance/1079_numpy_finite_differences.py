import numpy as np
import torch


def f_np(v):
    return np.sum(np.sin(v) * v**2) + np.prod(v)


def f_torch(v):
    return torch.sum(torch.sin(v) * v**2) + torch.prod(v)


x0 = np.array([0.3, -1.2, 2.0, 0.7])
h = 1e-6
numeric = np.zeros_like(x0)
for i in range(len(x0)):
    step = np.zeros_like(x0)
    step[i] = h
    numeric[i] = (f_np(x0 + step) - f_np(x0 - step)) / (2 * h)

x = torch.tensor(x0, requires_grad=True)
f_torch(x).backward()
analytic = x.grad.numpy()
print(np.round(numeric, 5))
print(np.round(analytic, 5))
print(np.allclose(numeric, analytic, atol=1e-6))
print(float(np.max(np.abs(numeric - analytic))) < 1e-6)
