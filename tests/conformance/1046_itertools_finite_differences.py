# Finite differences over every index pair (itertools.product) against autograd's Hessian.
import itertools

import torch


def f(v):
    return (v[0] ** 2) * v[1] + torch.sin(v[1] * v[2]) + v[0] * v[2] ** 3


x = torch.tensor([0.3, -1.2, 0.7], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(f(x), x, create_graph=True)
rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)]
hessian = torch.stack(rows)
eps = 1e-4
worst = 0.0
for i, j in itertools.product(range(3), repeat=2):
    e_i = torch.zeros(3, dtype=torch.float64)
    e_j = torch.zeros(3, dtype=torch.float64)
    e_i[i] = eps
    e_j[j] = eps
    with torch.no_grad():
        fd = (f(x + e_i + e_j) - f(x + e_i - e_j) - f(x - e_i + e_j) + f(x - e_i - e_j)) / (
            4 * eps * eps
        )
    worst = max(worst, abs(fd.item() - hessian[i, j].item()))
print(hessian)
print(worst < 1e-5)
pairs = list(itertools.combinations(range(3), 2))
print(pairs, all(abs(hessian[i, j] - hessian[j, i]).item() < 1e-12 for i, j in pairs))
