# JVP of a small network (nn.Linear, tanh, nn.Sequential) in the input direction.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3), nn.Sigmoid())
x = torch.randn(2, 4)
v = torch.randn(2, 4)

with torch.no_grad():
    with fwAD.dual_level():
        out = net(fwAD.make_dual(x, v))
        primal, jvp = fwAD.unpack_dual(out)
print(primal)
print(jvp)

# the same directional derivative by central differences
eps = 1e-3
with torch.no_grad():
    fd = (net(x + eps * v) - net(x - eps * v)) / (2 * eps)
print(torch.allclose(jvp, fd, atol=1e-4))

# forward-over-loss: d loss along v, equal to <grad, v>
xg = x.clone().requires_grad_()
loss = net(xg).pow(2).sum()
(g,) = torch.autograd.grad(loss, xg)
with torch.no_grad():
    with fwAD.dual_level():
        dloss = fwAD.unpack_dual(net(fwAD.make_dual(x, v)).pow(2).sum()).tangent
print(round(dloss.item(), 5), round((g * v).sum().item(), 5))
