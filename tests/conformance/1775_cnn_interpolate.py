# F.interpolate / nn.Upsample: nearest, bilinear with and without align_corners, linear, gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 7.0).reshape(1, 1, 2, 3).requires_grad_()
print(F.interpolate(x, scale_factor=2))
print(F.interpolate(x, size=(3, 5)))
print(F.interpolate(x, scale_factor=2, mode="bilinear"))
print(F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True))
print(F.interpolate(x, size=(3, 4), mode="bilinear", align_corners=False))
print(F.interpolate(x, scale_factor=1.5, mode="nearest"))
print(F.interpolate(x, size=(3, 5), mode="nearest-exact"))
y = F.interpolate(x, scale_factor=2, mode="bilinear")
(y * torch.arange(24.0).reshape(1, 1, 4, 6)).sum().backward()
print(x.grad)
s = torch.tensor([[[1.0, 2.0, 4.0]]], requires_grad=True)
print(F.interpolate(s, scale_factor=2, mode="linear"))
print(F.interpolate(s, size=5, mode="linear", align_corners=True))
up = nn.Upsample(scale_factor=2, mode="nearest")
print(up, up(x).shape)
print(nn.Upsample(size=(4, 4), mode="bilinear", align_corners=True))
