# second derivatives through conv and pooling (gradient penalty style): grad of grad norm
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 2, 3), nn.Tanh(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(2 * 3 * 3, 1)
)
x = torch.randn(2, 1, 8, 8, requires_grad=True)
out = net(x).sum()
(g,) = torch.autograd.grad(out, x, create_graph=True)
print(g.grad_fn)
penalty = g.pow(2).sum()
penalty.backward()
print(penalty)
print(net[0].weight.grad)
print(net[4].bias.grad)
w = torch.randn(3, 1, 2, 2, dtype=torch.float64, requires_grad=True)
x = torch.randn(1, 1, 4, 4, dtype=torch.float64, requires_grad=True)
y = F.max_pool2d(F.conv2d(x, w, stride=1, padding=1), 2)
gx, gw = torch.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
print(gx.grad_fn, gw.grad_fn)
(hx,) = torch.autograd.grad(gw.sum(), x)
print(hx)
print(torch.autograd.gradgradcheck(lambda x, w: F.conv2d(x, w, padding=1), (x, w)))
