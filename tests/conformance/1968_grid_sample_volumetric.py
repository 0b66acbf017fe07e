# Volumetric spatial transformers: F.affine_grid with a batch of 3x4 matrices for a 5-D size and
# F.grid_sample on an NCDHW volume (trilinear "bilinear" and nearest, every padding mode, both
# align_corners): values, grad_fns (AffineGridGeneratorBackward0, GridSampler3DBackward0),
# gradients of the volume and of theta (float64: the theta gradient cancels), and the rank errors
import torch
import torch.nn.functional as F

volume = torch.arange(24.0, dtype=torch.float64).view(1, 1, 2, 3, 4).requires_grad_()
theta = torch.tensor(
    [[[0.9, -0.2, 0.1, 0.05], [0.15, 0.8, 0.0, -0.1], [0.0, 0.1, 1.1, 0.2]]],
    dtype=torch.float64,
    requires_grad=True,
)
for align in (True, False):
    grid = F.affine_grid(theta, (1, 1, 2, 2, 3), align_corners=align)
    print(grid.shape, grid.grad_fn.name())
    print(grid)
    for mode in ("bilinear", "nearest"):
        for padding in ("zeros", "border", "reflection"):
            out = F.grid_sample(volume, grid, mode=mode, padding_mode=padding, align_corners=align)
            gv, gt = torch.autograd.grad(out.pow(2).sum(), (volume, theta))
            print(mode, padding, out.grad_fn.name(), out)
            print(gv, gt)
for bad in [
    lambda: F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 2, 2, 3), align_corners=False),
    lambda: F.grid_sample(volume, torch.zeros(1, 2, 2, 2), align_corners=True),
    lambda: F.grid_sample(torch.zeros(1, 1, 2, 2), torch.zeros(1, 1, 1, 1, 2), align_corners=True),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
