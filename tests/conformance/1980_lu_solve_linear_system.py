# Solving A x = b by LU (a numerical-methods course pattern, and torch.linalg.lu_factor's docs):
# factor once, solve for several right-hand sides, check the factors (P L U = A), the deprecated
# torch.lu / lu_unpack / lu_solve spellings, gradients through the factorisation and the solve,
# and the errors for a singular or non-square input.
import torch

A = torch.tensor(
    [[2.0, 1.0, 1.0, 0.0], [4.0, 3.0, 3.0, 1.0], [8.0, 7.0, 9.0, 5.0], [6.0, 7.0, 9.0, 8.0]],
    dtype=torch.float64,
    requires_grad=True,
)
b = torch.tensor([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]], dtype=torch.float64)
LU, pivots = torch.linalg.lu_factor(A)
print(LU)
print(pivots, pivots.dtype, LU.grad_fn.name())
x = torch.linalg.lu_solve(LU, pivots, b)
print(x, x.grad_fn.name())
print(torch.allclose(A @ x, b))
print(torch.linalg.lu_solve(LU, pivots, b, adjoint=True))
print(torch.linalg.lu_solve(LU, pivots, b.mT, left=False))

P, L, U = torch.linalg.lu(A)
print(P)
print(L)
print(U, U.grad_fn.name(), P.requires_grad)
print(torch.allclose(P @ L @ U, A))
P2, L2, U2 = torch.lu_unpack(LU, pivots)
print(torch.equal(P2, P), torch.allclose(L2, L), L2.grad_fn.name())

LU3, piv3 = torch.lu(A.detach())
print(torch.lu_solve(b, LU3, piv3))
print(torch.lu(A, get_infos=True).info)
print(A.detach().lu()[1])

# the gradient of the solution's sum with respect to A and b
bb = b.clone().requires_grad_()
x = torch.linalg.lu_solve(*torch.linalg.lu_factor(A), bb)
x.sum().backward()
print(A.grad)
print(bb.grad)
A.grad = None
(L.sum() + U.pow(2).sum()).backward()
print(A.grad)

# a batch, and a wide matrix (P L U with U trapezoidal)
batch = torch.tensor(
    [[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 1.0]]], dtype=torch.float64, requires_grad=True
)
out = torch.linalg.lu_factor_ex(batch)
print(out)
wide = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], requires_grad=True)
print(torch.linalg.lu(wide))
torch.linalg.lu_factor(wide).LU.sum().backward()
print(wide.grad)

singular = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(torch.linalg.lu_factor_ex(singular))
for bad in [
    lambda: torch.linalg.lu_factor(singular),
    lambda: torch.linalg.lu_factor_ex(singular, check_errors=True),
    lambda: torch.linalg.lu_factor(torch.ones(3)),
    lambda: torch.linalg.lu_factor(torch.ones(2, 2, dtype=torch.long)),
    lambda: torch.linalg.lu_solve(torch.ones(2, 3), torch.ones(2, dtype=torch.int32), b),
    lambda: torch.linalg.lu_solve(LU, pivots, torch.ones(3, 1, dtype=torch.float64)),
    lambda: torch.lu_unpack(LU, pivots.long()),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
