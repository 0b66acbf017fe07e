# grad_fn names of the convolution and pooling family and of their backward under create_graph
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 8, 8, requires_grad=True)
w = torch.randn(4, 3, 3, 3, requires_grad=True)
print(F.conv2d(x, w).grad_fn)
print(F.conv1d(x[0, :, 0], w[:, :, 0]).grad_fn, F.conv1d(x[:, :, 0], w[:, :, 0]).grad_fn)
print(F.conv_transpose2d(x, torch.randn(3, 2, 3, 3)).grad_fn)
print(F.max_pool2d(x, 2).grad_fn, F.avg_pool2d(x, 2).grad_fn)
print(F.max_pool1d(x[0], 2).grad_fn, F.avg_pool1d(x[0], 2).grad_fn)
print(F.adaptive_avg_pool2d(x, 1).grad_fn, F.adaptive_avg_pool2d(x, (3, 3)).grad_fn)
print(
    F.interpolate(x, scale_factor=2).grad_fn,
    F.interpolate(x, scale_factor=2, mode="bilinear").grad_fn,
)
print(
    F.interpolate(x[0], scale_factor=2, mode="linear").grad_fn, F.interpolate(x[0], size=5).grad_fn
)
print(F.unfold(x, 3).grad_fn, F.fold(F.unfold(x, 3), (8, 8), 3).grad_fn)
for f in (
    lambda t: F.conv2d(t, w),
    lambda t: F.max_pool2d(t, 2),
    lambda t: F.avg_pool2d(t, 2),
    lambda t: F.adaptive_avg_pool2d(t, 3),
    lambda t: F.interpolate(t, scale_factor=2, mode="bilinear"),
):
    (g,) = torch.autograd.grad(f(x).pow(2).sum(), x, create_graph=True)
    print(g.grad_fn)
