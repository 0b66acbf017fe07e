import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-4.0, -3.0, -1.0, 0.0, 1.0, 3.0, 4.0, float("nan")], requires_grad=True)
for name, fn in [
    ("hardswish", F.hardswish),
    ("hardsigmoid", F.hardsigmoid),
    ("mish", F.mish),
    ("celu", lambda t: F.celu(t, 2.0)),
    ("threshold", lambda t: F.threshold(t, 1.0, -5.0)),
]:
    y = fn(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(name, y.grad_fn.name())
    print(y)
    print(g)

z = torch.tensor([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]], requires_grad=True)
y = F.glu(z)
print(y)
y.sum().backward()
print(z.grad)
print(F.glu(z, 0))

for name, fn in [
    ("hardswish", lambda h: F.hardswish(h, inplace=True)),
    ("hardsigmoid", lambda h: F.hardsigmoid(h, inplace=True)),
    ("mish", lambda h: F.mish(h, inplace=True)),
    ("celu", lambda h: F.celu(h, 0.5, inplace=True)),
    ("celu_", lambda h: torch.celu_(h)),
    ("threshold", lambda h: F.threshold(h, 0.5, 2.0, inplace=True)),
    ("threshold_", lambda h: torch.threshold_(h, 0.5, 2.0)),
]:
    leaf = torch.tensor([-2.0, 0.25, 1.5], requires_grad=True)
    h = leaf * 1
    out = fn(h)
    out.sum().backward()
    print(name, out is h, out.grad_fn.name(), leaf.grad)

print(torch.celu(torch.tensor([-1.0, 2.0]), alpha=1.5), torch.threshold(torch.tensor([1, 5]), 2, 0))
w = torch.tensor([0.5, -1.0], requires_grad=True)
(gw,) = torch.autograd.grad(F.hardswish(w).sum(), w, create_graph=True)
print(gw)
(gw,) = torch.autograd.grad(F.hardsigmoid(w).sum(), w, create_graph=True)
print(gw.grad_fn.name())
try:
    gw.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

for bad in [
    lambda: F.hardswish(torch.tensor([1, 2])),
    lambda: F.mish(torch.tensor([True])),
    lambda: F.celu(torch.tensor([1.0]), 0.0),
    lambda: F.glu(torch.ones(2, 3)),
    lambda: F.glu(torch.tensor(1.0)),
    lambda: F.glu(torch.ones(2, 4), 2),
    lambda: F.threshold(torch.tensor([True]), 0, 0),
    lambda: F.celu(torch.tensor([-1.0, 1.0]) * 1, -1.0, inplace=True).sum().backward(),
    lambda: F.hardswish(torch.ones(2, requires_grad=True), inplace=True),
]:
    try:
        bad()
    except (RuntimeError, NotImplementedError, IndexError) as e:
        print(type(e).__name__ + ":", e)

print(nn.Hardswish(), nn.Hardsigmoid(inplace=True), nn.Mish(), nn.Mish(inplace=True))
print(nn.CELU(), nn.CELU(0.5, inplace=True), nn.GLU(), nn.GLU(0))
print(nn.Threshold(0.1, 20), nn.Threshold(1, 2.5, inplace=True))
model = nn.Sequential(nn.Linear(2, 4), nn.Hardswish(), nn.GLU(), nn.Mish(), nn.CELU(0.7))
print(model)
torch.manual_seed(0)
print(model(torch.tensor([[1.0, -1.0]])).shape)
