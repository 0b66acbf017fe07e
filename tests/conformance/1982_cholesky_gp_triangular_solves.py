# A Gaussian-process regression step (Rasmussen & Williams Algorithm 2.1, as GP tutorials write
# it in PyTorch): K = k(X, X) + σ²I, L = cholesky(K), α = Lᵀ \ (L \ y) with triangular solves,
# the predictive mean and variance and the log marginal likelihood, its gradient with respect to
# the kernel's lengthscale; the same solves with torch.triangular_solve (named tuple
# solution/cloned_coefficient, upper/transpose/unitriangular) and cholesky_solve-free spellings.
import math

import torch

X = torch.tensor([[-2.0], [-1.0], [0.0], [1.5], [2.5]], dtype=torch.float64)
y = torch.tensor([[-0.8], [0.1], [0.9], [0.4], [-0.5]], dtype=torch.float64)
Xs = torch.tensor([[-1.5], [0.5], [2.0]], dtype=torch.float64)
log_ell = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
noise = 0.1


def rbf(a, b):
    d2 = (a - b.T) ** 2
    return torch.exp(-0.5 * d2 / torch.exp(log_ell) ** 2)


K = rbf(X, X) + noise * torch.eye(5, dtype=torch.float64)
L = torch.linalg.cholesky(K)
v = torch.linalg.solve_triangular(L, y, upper=False)
alpha = torch.linalg.solve_triangular(L.T, v, upper=True)
print(v.grad_fn.name(), alpha.grad_fn.name())
Ks = rbf(X, Xs)
mean = Ks.T @ alpha
w = torch.linalg.solve_triangular(L, Ks, upper=False)
var = torch.diagonal(rbf(Xs, Xs)) - (w * w).sum(0)
print(mean.squeeze(), var)
nll = (
    0.5 * (y.T @ alpha).squeeze() + torch.log(torch.diagonal(L)).sum() + 2.5 * math.log(2 * math.pi)
)
print(nll)
nll.backward()
print(log_ell.grad)

# the deprecated torch.triangular_solve: (solution, cloned_coefficient)
Ld = L.detach().requires_grad_()
res = torch.triangular_solve(y, Ld, upper=False)
print(res.solution.squeeze(), res.cloned_coefficient.shape, res.solution.grad_fn.name())
sol, coeff = torch.triangular_solve(res.solution, Ld, upper=False, transpose=True)
print(torch.allclose(sol, alpha), torch.equal(coeff, Ld))
sol.sum().backward()
print(Ld.grad)
U = torch.tensor([[2.0, 1.0, -1.0], [0.0, 3.0, 0.5], [0.0, 0.0, 4.0]], requires_grad=True)
B = torch.tensor([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]], requires_grad=True)
for upper, transpose, unit in [(True, False, False), (True, True, False), (True, False, True)]:
    out = torch.triangular_solve(B, U, upper=upper, transpose=transpose, unitriangular=unit)
    print(out.solution)
print(U.triangular_solve(torch.eye(3), upper=True).solution)
print(torch.linalg.solve_triangular(U, B, upper=True, left=True, unitriangular=True))
print(torch.linalg.solve_triangular(U, B.T, upper=True, left=False))
out = torch.triangular_solve(B, U)
(out.solution.pow(2).sum() + out.cloned_coefficient.sum()).backward()
print(U.grad)
print(B.grad)
for bad in [
    lambda: torch.triangular_solve(torch.ones(2, 1), torch.ones(2, 3)),
    lambda: torch.triangular_solve(torch.ones(3, 1), torch.eye(2)),
    lambda: torch.triangular_solve(torch.ones(2, 1, dtype=torch.float64), torch.eye(2)),
    lambda: torch.linalg.solve_triangular(torch.ones(2, 3), torch.ones(2, 1), upper=True),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
