# Softmin as soft nearest-neighbour weights over distances (as in prototype / matching networks),
# and a self-normalising SELU network (Klambauer et al. 2017) with torch.selu.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
queries = torch.randn(3, 2, requires_grad=True)
prototypes = torch.randn(4, 2)
dist = ((queries[:, None, :] - prototypes[None]) ** 2).sum(-1)
softmin = nn.Softmin(dim=1)
print(softmin, nn.Softmin())
weights = softmin(dist)
print(weights, weights.sum(1))
print(weights.grad_fn, weights.grad_fn.next_functions)
print(torch.allclose(weights, F.softmax(-dist, dim=1)), torch.allclose(weights, F.softmin(dist, 1)))
weights[:, 0].sum().backward()
print(queries.grad)
print(F.softmin(dist.detach(), dim=0, dtype=torch.float64))

x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.selu(x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
print(torch.allclose(torch.selu(x), F.selu(x)), torch.allclose(torch.selu(x), nn.SELU()(x)))

net = nn.Sequential(nn.Linear(8, 32), nn.SELU(), nn.Linear(32, 32), nn.SELU())
for m in net:
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0.0, (1.0 / m.in_features) ** 0.5)
        nn.init.zeros_(m.bias)
h = net(torch.randn(256, 8))
print(round(h.mean().item(), 4), round(h.std().item(), 4))
