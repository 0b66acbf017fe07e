# Shrinkage activations: hard and soft thresholding of noisy coefficients (the wavelet-denoising
# pattern), soft-thresholding as the proximal step of ISTA for a LASSO problem, and
# tanhshrink / softsign with their autograd graphs.
import torch
import torch.nn as nn
import torch.nn.functional as F

coeffs = torch.tensor([-1.2, -0.5, -0.3, 0.0, 0.2, 0.5, 0.7, 2.0], requires_grad=True)
print(nn.Hardshrink(), nn.Softshrink(0.3), nn.Tanhshrink(), nn.Softsign())
for layer in (nn.Hardshrink(), nn.Softshrink(0.3), nn.Tanhshrink(), nn.Softsign()):
    out = layer(coeffs)
    (g,) = torch.autograd.grad(out.sum(), coeffs)
    print(type(layer).__name__, out, g)

hard = F.hardshrink(coeffs, lambd=0.4)
soft = F.softshrink(coeffs, 0.4)
print(
    hard.grad_fn, soft.grad_fn, torch.hardshrink(coeffs, 0.4).grad_fn, coeffs.hardshrink().grad_fn
)
print(F.tanhshrink(coeffs).grad_fn.next_functions[1][0])
s = F.softsign(coeffs)
print(s.grad_fn, s.grad_fn.next_functions[1][0], s.grad_fn.next_functions[1][0].next_functions)

# second derivatives through the shrink nodes
(g,) = torch.autograd.grad(F.softshrink(coeffs, 0.4).pow(2).sum(), coeffs, create_graph=True)
print(g, g.grad_fn)
(gg,) = torch.autograd.grad(g.sum(), coeffs)
print(gg)

# ISTA for min 0.5 ||A x - b||^2 + lam ||x||_1
torch.manual_seed(3)
A = torch.randn(6, 4, dtype=torch.float64)
x_true = torch.tensor([1.5, 0.0, -2.0, 0.0], dtype=torch.float64)
b = A @ x_true
lam = 0.1
step = 1.0 / (A**2).sum()  # (1 / ‖A‖_F² ≤ 1 / ‖A‖₂²: a safe ISTA step)
x = torch.zeros(4, dtype=torch.float64)
for _ in range(60):
    x = F.softshrink(x - step * A.T @ (A @ x - b), (step * lam).item())
print(x, ((A @ x - b) ** 2).sum().item())

try:
    F.softshrink(coeffs, -0.1)
except RuntimeError as e:
    print("RuntimeError:", e)
