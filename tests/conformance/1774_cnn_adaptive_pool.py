# adaptive average pooling: uneven windows, None sizes, 1x1 as a mean, 1d, and gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(35.0).reshape(1, 1, 5, 7).requires_grad_()
for size in [(2, 3), (3, None), 4, (5, 7), (1, 1)]:
    y = F.adaptive_avg_pool2d(x, size)
    print(size, y.shape, y.grad_fn)
    print(y)
m = nn.AdaptiveAvgPool2d((3, 2))
print(m)
y = m(x)
(y * torch.arange(6.0).reshape(1, 1, 3, 2)).sum().backward()
print(x.grad)
print(nn.AdaptiveAvgPool1d(3)(torch.arange(10.0).reshape(1, 1, 10)))
print(nn.AdaptiveAvgPool2d(1))
