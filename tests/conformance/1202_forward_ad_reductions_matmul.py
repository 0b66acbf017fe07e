# Reductions, matrix products and broadcasting carry tangents.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
A = torch.randn(3, 4)
B = torch.randn(4, 2)
tA = torch.randn(3, 4)
tB = torch.randn(4, 2)
bias = torch.randn(2)

with fwAD.dual_level():
    a = fwAD.make_dual(A, tA)
    b = fwAD.make_dual(B, tB)
    print(a.sum())
    print(a.mean(dim=1))
    print(a.max())
    print(a.amax(dim=0))
    print(a.norm())
    print(a.std(dim=1))
    print(a.var())
    print(a.logsumexp(dim=1))
    print(a.prod(dim=0))
    print(a.cumsum(dim=1))
    mm = a @ b
    print(mm)
    expected = tA @ B + A @ tB
    print(torch.allclose(fwAD.unpack_dual(mm).tangent, expected))
    print(torch.addmm(bias, a, b))
    print(a.t() @ a)
    print(torch.mv(a, torch.ones(4)))
    print(torch.einsum("ij,jk->ik", a, b) if hasattr(torch, "einsum") else mm)
    print((a + bias.repeat(2)[:4]).sum(dim=0))
    print(a.softmax(dim=1))
    print(torch.log_softmax(a, dim=0))
    print((a - torch.ones(3, 4)).pow(2).sum().sqrt())
