# Distances (cdist with p and compute_mode, dist), the trapezoidal rule (trapezoid, trapz,
# cumulative_trapezoid with x or dx), cov (correction, fweights, aweights), corrcoef, quantile /
# nanquantile (interpolation modes), nanmedian and mode: values, grad_fns and gradients
import torch

a = torch.tensor([[0.0, 1.0], [2.0, -1.0], [1.5, 0.5]], requires_grad=True)
b = torch.tensor([[1.0, 1.0], [-1.0, 0.0]])
for p in (2.0, 1.0, 3.0, float("inf")):
    d = torch.cdist(a, b, p=p)
    print(p, d)
    d.sum().backward()
    print(a.grad)
    a.grad = None
print(torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"))
print(torch.dist(a, torch.zeros(2)), a.dist(torch.ones(3, 2), 1))

y = torch.tensor([1.0, 4.0, 9.0, 16.0, 25.0], requires_grad=True)
x = torch.tensor([0.0, 0.5, 2.0, 3.0, 3.5])
print(torch.trapezoid(y), torch.trapezoid(y, dx=0.25), torch.trapezoid(y, x), torch.trapz(y, x))
print(torch.cumulative_trapezoid(y), torch.cumulative_trapezoid(y, x))
torch.trapezoid(y, x).backward()
print(y.grad)
print(torch.trapezoid(torch.arange(12.0).view(3, 4), dim=0))

obs = torch.tensor([[1.0, 2.0, 4.0, 7.0, 3.0], [0.5, -1.0, 2.0, 3.0, 1.0]], requires_grad=True)
c = torch.cov(obs)
print(c)
print(torch.cov(obs, correction=0), torch.cov(obs, fweights=torch.tensor([1, 2, 1, 1, 3])))
print(torch.cov(obs, aweights=torch.tensor([0.5, 1.0, 2.0, 1.0, 0.2])))
r = torch.corrcoef(obs)
print(r)
(c.sum() + r[0, 1]).backward()
print(obs.grad)

v = torch.tensor(
    [[3.0, 1.0, 4.0, 1.5, 5.0, 9.0], [2.0, 6.0, 5.0, 3.0, 5.5, 8.0]], requires_grad=True
)
for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(mode, torch.quantile(v, 0.4, dim=1, interpolation=mode))
q = torch.quantile(v, torch.tensor([0.1, 0.5, 0.9]), dim=1, keepdim=True)
print(q.shape, q)
torch.quantile(v, 0.35).backward()
print(v.grad)
w = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 2.0]])
print(torch.quantile(w, 0.5, dim=1), torch.nanquantile(w, 0.5, dim=1), torch.nanquantile(w, 0.5))
print(torch.nanmedian(w), torch.nanmedian(w, 1), w.nanmedian(0, keepdim=True))
m = torch.tensor([[1.0, 3.0, 3.0, 2.0, 1.0], [4.0, 4.0, 0.0, 0.0, 7.0]], requires_grad=True)
print(torch.mode(m), m.mode(0))
torch.mode(m).values.sum().backward()
print(m.grad)
for bad in [
    lambda: torch.cdist(torch.ones(3, 2), torch.ones(4, 3)),
    lambda: torch.dist(torch.tensor([1, 2]), torch.tensor([0, 0])),
    lambda: torch.trapezoid(y, torch.ones(3)),
    lambda: torch.cov(obs, fweights=torch.tensor([1.0, 2.0, 1.0, 1.0, 1.0])),
    lambda: torch.quantile(v, 1.5),
    lambda: torch.quantile(torch.tensor([1, 2]), 0.5),
    lambda: torch.mode(torch.ones(0)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
