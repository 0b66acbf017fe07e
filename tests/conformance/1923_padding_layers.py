# The padding layers of the torch.nn docs (ZeroPad, ConstantPad, ReflectionPad, ReplicationPad in
# 1d and 2d) on the docs' examples: reprs, values, grad_fns and the gradient each pad sends back
import torch
import torch.nn as nn

input = torch.arange(8, dtype=torch.float).reshape(1, 2, 4)
for m in [
    nn.ReflectionPad1d(2),
    nn.ReflectionPad1d((3, 1)),
    nn.ReplicationPad1d(2),
    nn.ReplicationPad1d((3, 1)),
    nn.ConstantPad1d(2, 3.5),
    nn.ConstantPad1d((3, 1), 3.5),
    nn.ZeroPad1d(2),
    nn.ZeroPad1d((3, 1)),
]:
    print(m)
    print(m(input))

input = torch.arange(9, dtype=torch.float).reshape(1, 1, 3, 3)
for m in [
    nn.ReflectionPad2d(2),
    nn.ReflectionPad2d((1, 1, 2, 0)),
    nn.ReplicationPad2d(2),
    nn.ReplicationPad2d((1, 1, 2, 0)),
    nn.ZeroPad2d(2),
    nn.ZeroPad2d((1, 1, 2, 0)),
    nn.ConstantPad2d(2, 3.5),
    nn.ConstantPad2d((3, 0, 2, 1), 3.5),
]:
    print(m)
    out = m(input)
    print(out, out.shape)

x = torch.tensor([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]], requires_grad=True)
for m in [
    nn.ZeroPad2d((1, 2, 0, 1)),
    nn.ConstantPad2d(1, -1.0),
    nn.ReflectionPad2d((2, 1, 1, 1)),
    nn.ReplicationPad2d((2, 1, 1, 1)),
]:
    y = m(x)
    print(m, y.grad_fn)
    (y * torch.arange(float(y.numel())).view(y.shape)).sum().backward()
    print(x.grad)
    x.grad = None
crop = nn.ZeroPad2d((-1, 0, 0, -1))
print(crop, crop(x))
print(nn.ZeroPad2d(1)(torch.ones(2, 2)))
print(nn.ReflectionPad1d(1)(torch.tensor([[1.0, 2.0, 3.0]])).grad_fn)
seq = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(1, 1, 3, bias=False))
with torch.no_grad():
    seq[1].weight.fill_(1.0 / 9)
print(seq(torch.arange(16.0).view(1, 1, 4, 4)))
print(nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 2.0)(torch.ones(1, 1, 1, 2)).shape)
