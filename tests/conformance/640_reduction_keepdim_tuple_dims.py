import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
for keepdim in (False, True):
    s = x.sum((0, 2), keepdim=keepdim)
    print(s.shape, s)
    m = x.mean(dim=[-1, 0], keepdim=keepdim)
    print(m.shape, m)
    a = torch.amax(x, (1, 2), keepdim)
    print(a.shape, a)
    lse = x.logsumexp((0, 1), keepdim=keepdim)
    print(lse.shape)
    v = x.var((0, 2), keepdim=keepdim)
    print(v.shape, v)
    n = x.norm(dim=(1, 2), keepdim=keepdim)
    print(n.shape, n)
print(x.sum(()), x.sum(()).grad_fn.name())
print(x.sum(2).grad_fn._saved_dim, x.sum(2).grad_fn._saved_keepdim)
print(x.sum(2).grad_fn._saved_self_sym_sizes)
y = torch.tensor(3.0, requires_grad=True)
print(y.sum(0), y.mean(-1, keepdim=True), y.max(0), y.argmax(0), y.cumsum(0), y.prod(0))
try:
    x.sum((1, -2))
except RuntimeError as e:
    print(type(e).__name__, e)
