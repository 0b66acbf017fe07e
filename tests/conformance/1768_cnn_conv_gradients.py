# gradients of conv2d for stride, padding, dilation and groups, checked with gradcheck in float64
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
x = torch.randn(2, 4, 6, 6, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 2, 3, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(4, dtype=torch.float64, requires_grad=True)
for kw in [
    dict(),
    dict(stride=2),
    dict(padding=1),
    dict(dilation=2),
    dict(groups=2),
    dict(padding="same", groups=2),
]:
    groups = kw.get("groups", 1)
    weight = w if groups == 2 else torch.randn(4, 4, 3, 3, dtype=torch.float64, requires_grad=True)

    def f(x, weight, b, kw=kw):
        return F.conv2d(x, weight, b, **kw)

    y = f(x, weight, b)
    print(kw, tuple(y.shape), gradcheck(f, (x, weight, b)), gradgradcheck(f, (x, weight, b)))
y = F.conv2d(x, w, b, groups=2, padding=1)
y.sum().backward()
print(b.grad)
print(w.grad[0])
print(x.grad[0, 0])
