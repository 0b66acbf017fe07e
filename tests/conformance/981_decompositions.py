# SVD (torch.svd, linalg.svd, svdvals), QR, Cholesky and the pseudo-inverse: factors, grad_fns,
# gradients through them, and the refusals
import torch

a = torch.tensor([[3.0, 1.0, 0.5], [1.0, 2.0, -1.0], [0.0, 1.0, 4.0]], requires_grad=True)
u, s, v = torch.svd(a)
print(u, s, v, sep="\n")
print((u @ torch.diag(s) @ v.t() - a).abs().max() < 1e-5)
(s.sum() + (u[:, 0] * v[:, 0]).sum()).backward()
print(a.grad)
a.grad = None
print(torch.linalg.svdvals(a))
U, S, Vh = torch.linalg.svd(a[:, :2], full_matrices=False)
print(U.shape, S, Vh.shape)

q, r = torch.linalg.qr(a)
print(q, r, sep="\n")
(q.sum() + r.triu().sum()).backward()
print(a.grad)
a.grad = None
print(torch.qr(a.detach()[:, :2], some=False).Q.shape, torch.linalg.qr(a.detach(), mode="r").Q)

spd = torch.tensor([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], requires_grad=True)
low = torch.linalg.cholesky(spd)
print(low)
print(torch.cholesky(spd, upper=True))
low.sum().backward()
print(spd.grad)

w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], requires_grad=True)
p = torch.linalg.pinv(w)
print(p.detach().round(decimals=4), p.grad_fn.name())
print(torch.pinverse(w.detach()).allclose(p.detach()))
p.pow(2).sum().backward()
print(w.grad)
for bad in [
    lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
    lambda: torch.linalg.svd(torch.tensor([[1, 0], [0, 1]])),
    lambda: torch.linalg.qr(torch.ones(2, 2), mode="x"),
    lambda: torch.linalg.qr(torch.ones(3, 2, requires_grad=True), mode="r")[1].sum().backward(),
    lambda: torch.pinverse(torch.ones(3)),
    lambda: torch.svd(torch.ones(3)),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
