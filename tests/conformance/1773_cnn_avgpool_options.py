# avg_pool2d: count_include_pad, ceil_mode, divisor_override, and their gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 26.0).reshape(1, 1, 5, 5).requires_grad_()
for kw in [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
    dict(kernel_size=2, ceil_mode=True),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=2, divisor_override=3),
]:
    y = F.avg_pool2d(x, **kw)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(kw)
    print(y)
    print(g)
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False))
print(nn.AvgPool1d(3, stride=2))
print(F.avg_pool1d(torch.arange(8.0).reshape(1, 1, 8), 3, stride=2, padding=1))
