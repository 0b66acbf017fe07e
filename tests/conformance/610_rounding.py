import torch

x = torch.tensor([-2.5, -1.5, -0.4, 0.5, 1.5, 2.7], requires_grad=True)
for name in ("floor", "ceil", "round", "trunc", "frac"):
    out = getattr(x, name)()
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.round(torch.tensor([1.2345, 2.5678]), decimals=2))
print(torch.tensor([3, -3]).floor())
