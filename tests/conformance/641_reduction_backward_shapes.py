import torch

x = torch.tensor(
    [[[1.0, 2.0], [3.0, 4.0], [5.0, 0.5]], [[2.0, 1.0], [0.5, 3.0], [1.5, 2.5]]], requires_grad=True
)
ops = [
    ("sum", lambda t: t.sum(1)),
    ("mean", lambda t: t.mean((0, 2), keepdim=True)),
    ("prod", lambda t: t.prod(2)),
    ("amax", lambda t: t.amax(-1)),
    ("amin", lambda t: t.amin((0, 1))),
    ("max", lambda t: t.max(1).values),
    ("min", lambda t: t.min(2, keepdim=True)[0]),
    ("median", lambda t: t.median(0).values),
    ("norm", lambda t: t.norm(dim=1)),
    ("norm1", lambda t: t.norm(1, 2, True)),
    ("var", lambda t: t.var(1)),
    ("std", lambda t: t.std((0, 1), keepdim=True)),
    ("logsumexp", lambda t: t.logsumexp(2)),
    ("cumsum", lambda t: t.cumsum(1)),
    ("cumprod", lambda t: t.cumprod(2)),
]
for name, fn in ops:
    out = fn(x)
    out.backward(torch.ones_like(out))
    print(name, tuple(out.shape), out.grad_fn.name(), tuple(x.grad.shape))
    print(x.grad)
    x.grad = None
