import torch
import torch.nn.functional as F

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
for name, fn in [
    (
        "softmax",
        lambda t: (F.softmax(t, 0) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum(),
    ),
    ("log_softmax", lambda t: F.log_softmax(t, 0)[1]),
    ("gelu", lambda t: F.gelu(t).sum()),
    ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh").sum()),
    ("elu", lambda t: F.elu(t).sum()),
    ("silu", lambda t: F.silu(t).sum()),
    ("mse", lambda t: F.mse_loss(t, torch.zeros(3, dtype=torch.float64))),
]:
    (g,) = torch.autograd.grad(fn(x), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    print(name, g.detach())
    print(h)
m = torch.tensor([[2.0, 1.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)
(gd,) = torch.autograd.grad(torch.det(m), m, create_graph=True)
print(gd.detach())
(hd,) = torch.autograd.grad(gd[0, 0], m)
print(hd)
(gi,) = torch.autograd.grad(torch.inverse(m).sum(), m, create_graph=True)
print(gi.detach())
print(torch.autograd.grad(gi.sum(), m)[0])
(gt,) = torch.autograd.grad(
    (torch.diagonal(m) ** 2).sum() + torch.trace(m @ m), m, create_graph=True
)
print(gt.detach(), torch.autograd.grad(gt.sum(), m)[0])
