import torch

x = torch.tensor([-2.5, -1.5, -0.4, 0.5, 1.5, 2.7], requires_grad=True)
ops = [
    ("floor", lambda t: t.floor()),
    ("ceil", lambda t: t.ceil()),
    ("round", lambda t: t.round()),
    ("trunc", lambda t: t.trunc()),
    ("frac", lambda t: t.frac()),
]
for name, op in ops:
    out = op(x)
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.round(torch.tensor([1.2345, 2.5678]), decimals=2))
print(torch.tensor([3, -3]).floor())
