# Matrix functions: det, inverse, solve, products, in float64.
import torch
import torch.autograd.forward_ad as fwAD

A = torch.tensor([[2.0, 0.5, 0.1], [0.3, 1.5, -0.2], [0.0, 0.4, 1.8]], dtype=torch.float64)
T = torch.tensor([[0.1, -0.2, 0.0], [0.5, 0.3, 0.2], [-0.1, 0.0, 0.4]], dtype=torch.float64)
b = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)

with fwAD.dual_level():
    a = fwAD.make_dual(A, T)
    det = torch.linalg.det(a)
    print(det)
    # Jacobi's formula: d det = det * trace(A^-1 dA)
    print(
        torch.allclose(
            fwAD.unpack_dual(det).tangent, torch.det(A) * torch.trace(torch.inverse(A) @ T)
        )
    )
    inv = torch.inverse(a)
    print(inv)
    print(torch.allclose(fwAD.unpack_dual(inv).tangent, -torch.inverse(A) @ T @ torch.inverse(A)))
    x = torch.inverse(a) @ b
    print(x)
    print((a @ a).trace())
    print(torch.matmul(a, b))
    print(torch.outer(b, a[0]))
    print(a.norm(dim=0))
    print(torch.linalg.norm(a))
    print(a.triu(1).sum(dim=1))
    print((a * a.t()).sum(-1))
