# Randomised low-rank factorisations (the torch.pca_lowrank docs and "PCA in PyTorch" tutorials):
# principal directions and explained variance of a centred data set, projecting onto the top
# components, svd_lowrank of a low-rank matrix with and without power iterations and with M, and
# the gradient of the captured variance; singular vectors compared up to sign (and singular
# values past the rank, rounding noise, left out).
import torch

torch.manual_seed(0)
latent = torch.randn(40, 2, dtype=torch.float64)
mix = torch.tensor([[1.0, 0.5, -0.3, 2.0, 0.1], [0.2, -1.0, 0.8, 0.0, 0.4]], dtype=torch.float64)
data = latent @ mix + 0.05 * torch.randn(40, 5, dtype=torch.float64) + 3.0
data.requires_grad_()
U, S, V = torch.pca_lowrank(data, q=3)
print(U.shape, S, V.shape, S.grad_fn.name(), U.grad_fn.name())
print(V.abs())
variance = S**2 / (data.shape[0] - 1)
print(variance, variance / variance.sum())
projected = (data - data.mean(0)) @ V[:, :2]
print(projected.abs()[:4])
variance[:2].sum().backward()
print(data.grad[:3])

torch.manual_seed(1)
low = torch.randn(8, 3) @ torch.randn(3, 6)
for q, niter in ((3, 2), (4, 0), (5, 3)):
    u, s, v = torch.svd_lowrank(low, q=q, niter=niter)
    print(q, niter, s[:3], s.shape, torch.dist(u @ torch.diag(s) @ v.T, low) < 1e-3)
print(torch.linalg.svdvals(low)[:3])
u, s, v = torch.svd_lowrank(low.T, q=3)
print(s, u.shape, v.shape)
M = torch.ones(8, 6)
print(torch.svd_lowrank(low + M, q=3, M=M)[1])
print(torch.pca_lowrank(low, center=False)[1][:3])
for bad in [lambda: torch.pca_lowrank(low, q=7), lambda: torch.pca_lowrank(low, niter=-1)]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
