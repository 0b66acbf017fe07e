import torch

x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
for name, fn in [
    ("mean", lambda t: t.mean() ** 2),
    ("sum", lambda t: t.sum() ** 2),
    ("prod", lambda t: t.prod()),
    ("var", lambda t: t.var()),
    ("std", lambda t: t.std()),
    ("logsumexp", lambda t: t.logsumexp(0) ** 2),
    ("norm", lambda t: t.norm()),
    ("cumsum", lambda t: (t.cumsum(0) ** 2).sum()),
    ("cumprod", lambda t: t.cumprod(0).sum()),
    ("max", lambda t: t.max() ** 2),
]:
    (g,) = torch.autograd.grad(fn(x), x, create_graph=True)
    print(name, g)
    (h,) = torch.autograd.grad(g.sum(), x, allow_unused=True)
    print(h)
