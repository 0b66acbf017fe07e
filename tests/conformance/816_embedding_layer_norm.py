# F.embedding / nn.Embedding and F.layer_norm / nn.LayerNorm: values, gradients (repeated
# indices, padding_idx), grad_fn names with create_graph, module reprs and error messages.
import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.arange(15.0).reshape(5, 3).div(10).requires_grad_()
idx = torch.tensor([[0, 2, 0], [4, 3, 2]])
out = F.embedding(idx, w)
print(out, out.grad_fn.name(), out.shape)
out.backward(torch.ones_like(out))
print(w.grad)
w.grad = None
out = F.embedding(idx, w, padding_idx=2)
print(out.grad_fn.name())
(out * torch.linspace(-1.0, 1.0, 18).reshape(2, 3, 3)).sum().backward()
print(w.grad)
v = torch.linspace(0.5, 2.0, 18).reshape(2, 3, 3).requires_grad_()
(g,) = torch.autograd.grad(F.embedding(idx, w, padding_idx=-1), w, v, create_graph=True)
print(g.grad_fn.name(), g)
(gv,) = torch.autograd.grad((g * g).sum(), v)
print(gv)
print(F.embedding(torch.tensor(3), w))

torch.manual_seed(0)
emb = nn.Embedding(6, 4, padding_idx=1)
print(emb, emb.weight.shape, emb.weight[1])
print(emb(torch.tensor([1, 5])).grad_fn.name())
print(nn.Embedding(10, 3, max_norm=None, scale_grad_by_freq=False))
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre, pre.weight.requires_grad, pre(torch.tensor([1, 0, 1])))
pre2 = nn.Embedding.from_pretrained(torch.eye(3), freeze=False, padding_idx=0)
print(pre2, pre2.weight.requires_grad)
print([name for name, _ in emb.named_parameters()])

for bad in (
    lambda: F.embedding(torch.tensor([0.0, 1.0]), w),
    lambda: F.embedding(torch.tensor([5]), w),
    lambda: nn.Embedding(3, 2, padding_idx=3),
):
    try:
        bad()
    except (RuntimeError, IndexError, AssertionError) as e:
        print(type(e).__name__, e)

rows = [[1.0, 2.0, 4.0, 7.0], [0.5, -0.5, 1.5, -1.5], [3.0, 3.0, 3.0, 3.5]]
x = torch.tensor(rows, dtype=torch.float64)
x.requires_grad_()
gamma = torch.tensor([1.0, 0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
beta = torch.tensor([0.0, 0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
y = F.layer_norm(x, (4,), gamma, beta)
print(y, y.grad_fn.name())
(y * torch.linspace(-1.0, 1.0, 12, dtype=torch.float64).reshape(3, 4)).sum().backward()
print(x.grad)
print(gamma.grad)
print(beta.grad)
y2 = F.layer_norm(x, [3, 4], eps=1e-3)
print(y2)
y = F.layer_norm(x, (4,), gamma, beta)
gx, gg, gb = torch.autograd.grad(y.pow(2).sum(), (x, gamma, beta), create_graph=True)
print(gx.grad_fn.name(), gg.grad_fn.name(), gb.grad_fn.name())
hx, hg = torch.autograd.grad((gx * gx).sum() + gg.sum() + gb.sum(), (x, gamma))
print(hx)
print(hg)
(gp,) = torch.autograd.grad(F.layer_norm(x, (4,)).pow(3).sum(), x, create_graph=True)
print(gp.grad_fn.name())
(second,) = torch.autograd.grad(gp.sum(), x)
print(second.grad_fn, second.shape)

ln = nn.LayerNorm(4)
print(ln, ln.weight, ln.bias)
x32 = torch.tensor(rows, requires_grad=True)
print(ln(x32), ln(x32).grad_fn.name())
print(nn.LayerNorm([2, 3], eps=1e-6, elementwise_affine=False), nn.LayerNorm(5, bias=False))
print(nn.LayerNorm((3, 4))(x32.detach()).abs().sum(), nn.LayerNorm(5, bias=False).bias)
model = nn.Sequential(nn.Embedding(5, 4), nn.LayerNorm(4))
print(model)

for bad in (
    lambda: F.layer_norm(x32, (3,)),
    lambda: F.layer_norm(x32, (4,), torch.ones(3)),
    lambda: F.layer_norm(torch.tensor([[1, 2]]), (2,)),
):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
