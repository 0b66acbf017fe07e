# PCA by the covariance's eigendecomposition (d2l / courses' "PCA from scratch"), ridge regression
# through a Cholesky factor (cholesky_solve, cholesky_inverse), matrix_rank / cond of a design
# matrix, the spectral and nuclear norms, and the *_ex variants' info codes; values, grad_fns and
# gradients (eigenvectors compared up to sign, which LAPACK builds may choose differently).
import torch

data = torch.tensor(
    [[2.5, 2.4, 0.5], [0.5, 0.7, 1.1], [2.2, 2.9, 0.3], [1.9, 2.2, 0.8], [3.1, 3.0, 0.1],
     [2.3, 2.7, 0.6], [2.0, 1.6, 1.0], [1.0, 1.1, 1.3]],
    dtype=torch.float64,
)  # fmt: skip
centred = data - data.mean(0)
C = (centred.T @ centred / (data.shape[0] - 1)).requires_grad_()
evals, evecs = torch.linalg.eigh(C)
print(evals, evals.grad_fn.name())
print(evecs.abs())
print(torch.allclose(evecs @ torch.diag(evals) @ evecs.T, C))
print(torch.linalg.eigvalsh(C, UPLO="U"))
explained = evals.flip(0) / evals.sum()
print(explained)
top = evecs[:, -1]
scores = centred @ (top * top.sign()[0])
print(scores)
(
    evals[-1] + (evecs[:, -1] ** 2 * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum()
).backward()
print(C.grad)

X = torch.stack([torch.ones(8, dtype=torch.float64), data[:, 0], data[:, 1]], dim=1)
print(torch.linalg.matrix_rank(X), torch.linalg.matrix_rank(X.T @ X, hermitian=True))
print(torch.linalg.matrix_rank(torch.ones(3, 3)), torch.linalg.matrix_rank(X, atol=1.0, rtol=0.0))
for p in (None, 2, -2, "fro", "nuc", 1, -1, float("inf"), -float("inf")):
    print(p, torch.linalg.cond(X.T @ X, p))
print(torch.linalg.matrix_norm(X, "nuc"), torch.linalg.matrix_norm(X, 2), torch.linalg.norm(X, -2))

# ridge regression: (XᵀX + λI) w = Xᵀy through the Cholesky factor
y = data[:, 2:].clone()
lam = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
A = X.T @ X + lam * torch.eye(3, dtype=torch.float64)
L = torch.linalg.cholesky(A)
w = torch.cholesky_solve(X.T @ y, L)
print(w.squeeze(), w.grad_fn.name())
print(torch.allclose(w, torch.linalg.solve(A, X.T @ y)))
Ainv = torch.cholesky_inverse(L)
print(Ainv, Ainv.grad_fn.name())
print(
    torch.cholesky_inverse(L.T, upper=True).diagonal(), (X.T @ y).cholesky_solve(L.T, upper=True).T
)
(w.sum() + Ainv.trace()).backward()
print(lam.grad)

print(torch.linalg.cholesky_ex(A.detach()).info, torch.linalg.inv_ex(A.detach()).info)
print(torch.linalg.solve_ex(A.detach(), torch.ones(3, dtype=torch.float64)))
not_pd = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
print(torch.linalg.cholesky_ex(not_pd))
singular = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(torch.linalg.inv_ex(singular).info, torch.linalg.solve_ex(singular, torch.ones(2)).info)
print(torch.linalg.vecdot(X, X).shape, torch.linalg.vecdot(X, X, dim=0))
print(torch.linalg.matmul(X.T, X).grad_fn, torch.linalg.diagonal(X.T @ X, offset=1))
for bad in [
    lambda: torch.linalg.eigh(torch.ones(2, 3)),
    lambda: torch.linalg.eigh(torch.eye(2), UPLO="X"),
    lambda: torch.linalg.matrix_rank(torch.ones(3)),
    lambda: torch.linalg.cond(torch.ones(2, 3), 1),
    lambda: torch.linalg.cholesky_ex(not_pd, check_errors=True),
    lambda: torch.linalg.inv_ex(singular, check_errors=True),
    lambda: torch.cholesky_solve(torch.ones(3, 1), torch.eye(2)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
