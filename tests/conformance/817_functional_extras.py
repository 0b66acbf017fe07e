# More of torch.nn.functional: pad (constant, reflect, replicate; crops), kl_div, xlogy,
# one_hot, normalize, cosine_similarity, hardtanh/relu6 (and their modules), softmin: values,
# gradients, grad_fn names (also of create_graph gradients) and error messages.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 7.0).reshape(1, 2, 3).requires_grad_()
for pad, mode in [
    ((1, 2), "constant"),
    ((1, -1, 0, 1), "constant"),
    ((2, 1), "reflect"),
    ((1, 1, 1, 0), "reflect"),
    ((2, 0), "replicate"),
    ((1, 2, 1, 1), "replicate"),
]:
    y = F.pad(x, pad, mode=mode)
    print(mode, pad, y.grad_fn.name(), tuple(y.shape))
    print(y)
    (g,) = torch.autograd.grad(y, x, torch.linspace(-1.0, 1.0, y.numel()).reshape(y.shape))
    print(g)
print(F.pad(x, (1, 1), value=-2.5))
print(F.pad(torch.tensor([[1, 2], [3, 4]]), (1, 0, 0, 1), value=7))
v = torch.ones(1, 2, 6, requires_grad=True)
(g,) = torch.autograd.grad(F.pad(x, (2, 1), mode="reflect"), x, v, create_graph=True)
print(g.grad_fn.name(), g)
print(torch.autograd.grad(g.pow(2).sum(), v)[0])
(g,) = torch.autograd.grad(F.pad(x, (1, 2)), x, v[..., :6], create_graph=True)
print(g.grad_fn.name())
for bad in (
    lambda: F.pad(x, (1,)),
    lambda: F.pad(x, (3, 0), mode="reflect"),
    lambda: F.pad(x, (1, 1), mode="replicate", value=1.0),
    lambda: F.pad(x, (1, 1), mode="wrap"),
    lambda: F.pad(x, (-4, 0)),
):
    try:
        bad()
    except (RuntimeError, NotImplementedError, ValueError) as e:
        print(type(e).__name__, e)

a = torch.tensor([0.0, 1.0, 2.0, 0.0], requires_grad=True)
b = torch.tensor([0.5, 2.0, 0.0, -1.0], requires_grad=True)
print(a.xlogy(b), a.xlogy(b).grad_fn.name())
a.xlogy(b).sum().backward()
print(a.grad, b.grad)
p = torch.tensor([0.5, 1.5], requires_grad=True)
q = torch.tensor([2.0, 3.0], requires_grad=True)
(gp,) = torch.autograd.grad(p.xlogy(q).sum(), p, create_graph=True)
print(gp.grad_fn.name(), gp)
print(torch.autograd.grad(gp.sum(), q)[0])

logp = torch.tensor([[-1.2, -0.4, -2.0], [-0.7, -1.1, -1.6]], requires_grad=True)
t = torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4]])
for reduction in ("none", "sum", "mean", "batchmean"):
    loss = F.kl_div(logp, t, reduction=reduction)
    print(reduction, loss, loss.grad_fn.name())
loss = F.kl_div(logp, t.clamp_min(1e-3).log(), reduction="batchmean", log_target=True)
print(loss)
loss.backward()
print(logp.grad)
print(F.kl_div(logp, t, size_average=False), F.kl_div(logp, t, reduce=False).shape)
try:
    F.kl_div(logp, t, reduction="avg")
except ValueError as e:
    print(type(e).__name__, e)

labels = torch.tensor([2, 0, 1, 2])
print(F.one_hot(labels), F.one_hot(labels, 5).shape, F.one_hot(labels).dtype)
print(F.one_hot(torch.tensor([[0, 1], [1, 0]]), num_classes=3))
for bad in (
    lambda: F.one_hot(labels, 2),
    lambda: F.one_hot(torch.tensor([-1, 0])),
    lambda: F.one_hot(torch.tensor([0.0, 1.0])),
):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)

m = torch.tensor([[3.0, 4.0, 0.0], [1.0, -2.0, 2.0]], requires_grad=True)
n = F.normalize(m)
print(n, n.grad_fn.name())
print(F.normalize(m, p=1, dim=0))
n.sum().backward()
print(m.grad)
print(F.normalize(torch.zeros(2, 2)))
u = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]], requires_grad=True)
w = torch.tensor([[2.0, 0.5, 1.0]], requires_grad=True)
c = F.cosine_similarity(u, w)
print(c, c.grad_fn.name())
c.sum().backward()
print(u.grad, w.grad)
print(F.cosine_similarity(u, u, dim=0), F.cosine_similarity(torch.zeros(3), torch.ones(3), dim=0))

h = torch.linspace(-3.0, 8.0, 7, requires_grad=True)
for fn in (F.hardtanh, F.relu6, lambda s: F.hardtanh(s, -2.0, 5.0)):
    y = fn(h)
    (g,) = torch.autograd.grad(y.sum(), h, create_graph=True)
    print(y, y.grad_fn.name(), g, g.grad_fn.name())
print(nn.Hardtanh(), nn.Hardtanh(-2.0, 2.0), nn.ReLU6(), nn.ReLU6(inplace=True))
print(nn.Hardtanh(-0.5, 0.5)(h), nn.ReLU6()(h))
try:
    F.hardtanh(h, 2.0, 1.0)
except ValueError as e:
    print(type(e).__name__, e)

s = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, -1.0]], requires_grad=True)
sm = F.softmin(s, dim=1)
print(sm, sm.grad_fn.name(), sm.grad_fn.next_functions[0][0].name())
(sm * torch.tensor([[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]])).sum().backward()
print(s.grad)
print(F.softmin(s, dim=0), F.softmin(s, dim=1, dtype=torch.float64).dtype)
