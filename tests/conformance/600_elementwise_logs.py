import torch

x = torch.tensor([0.5, 1.0, 4.0, 10.0], requires_grad=True)
for name in ("log2", "log10", "log1p", "expm1"):
    out = getattr(torch, name)(x)
    print(name, out)
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(
    x.log2().grad_fn.name(),
    x.log10().grad_fn.name(),
    x.log1p().grad_fn.name(),
    x.expm1().grad_fn.name(),
)
