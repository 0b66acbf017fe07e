# F.batch_norm and nn.BatchNorm2d/3d: training and evaluation on 3-D to 5-D inputs, the running
# statistics moving in place, gradients and second derivatives, and PyTorch's refusals.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2.0, 3.0, 48, dtype=torch.float64).reshape(2, 3, 2, 4).cos()
x.requires_grad_(True)
w = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, -0.3], dtype=torch.float64, requires_grad=True)
rm = torch.zeros(3, dtype=torch.float64)
rv = torch.ones(3, dtype=torch.float64)

y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3)
print(y[0, :, 0])
print(y.grad_fn.name(), [n[0].name() if n[0] else None for n in y.grad_fn.next_functions])
print(rm)
print(rv, rm._version)
gx, gw, gb = torch.autograd.grad((y**3).sum(), (x, w, b), create_graph=True)
print(gx[1, :, 1])
print(gw, gb)
print(gx.grad_fn.name(), gw.grad_fn.name() if gw.grad_fn else None)
hx, hw = torch.autograd.grad((gx**2).sum() + gw.sum(), (x, w))
print(hx[0, :, 0])
print(hw)

z = F.batch_norm(x, rm, rv, w, None, training=False)
print(z[1, :, 1])
(gz,) = torch.autograd.grad(z.sum(), (x,), create_graph=True)
print(gz[0, :, 0, 0], gz.grad_fn.name())

print(torch.batch_norm(x, None, None, rm, rv, False, 0.1, 1e-3, False)[0, 0, 0])
print(F.batch_norm(x.float()[:, :, 0], None, None, training=True).dtype)

bn2 = nn.BatchNorm2d(3)
bn2.train()
out2 = bn2(x.float())
print(bn2, out2.dtype, bn2.running_mean, bn2.num_batches_tracked)
bn3 = nn.BatchNorm3d(2, momentum=0.5).double()
v = torch.arange(32, dtype=torch.float64).reshape(2, 2, 2, 2, 2).sqrt()
print(bn3(v)[0, 1, 0])
print(bn3.running_var)
bn3.eval()
print(bn3(v)[1, 0, 1])
print(bn3.state_dict()["num_batches_tracked"], bn3.state_dict()["running_mean"].dtype)


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__, e)


attempt("one value", lambda: F.batch_norm(torch.ones(1, 4), None, None, training=True))
attempt(
    "1x4x1", lambda: F.batch_norm(torch.ones(1, 4, 1), torch.zeros(4), torch.ones(4), training=True)
)
attempt("mean size", lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(5), torch.ones(4)))
attempt("var size", lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4), torch.ones(2)))
attempt(
    "weight size", lambda: F.batch_norm(torch.ones(3, 4), None, None, torch.ones(3), training=True)
)
attempt("eval no stats", lambda: F.batch_norm(torch.ones(3, 4), None, None))
attempt("integer", lambda: F.batch_norm(torch.ones(3, 4).long(), torch.zeros(4), torch.ones(4)))
attempt(
    "mixed", lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4).double(), torch.ones(4).double())
)
attempt("eps", lambda: F.batch_norm(torch.ones(3, 4), None, None, training=True, eps=0.0))
attempt("1d on 4d", lambda: nn.BatchNorm1d(3)(torch.ones(2, 3, 2, 2)))
attempt("2d on 3d", lambda: nn.BatchNorm2d(3)(torch.ones(2, 3, 2)))
attempt("3d on 4d", lambda: nn.BatchNorm3d(3)(torch.ones(2, 3, 2, 2)))
attempt("module batch 1", lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
