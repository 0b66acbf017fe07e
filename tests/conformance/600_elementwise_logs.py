import torch

x = torch.tensor([0.5, 1.0, 4.0, 10.0], requires_grad=True)
ops = [("log2", torch.log2), ("log10", torch.log10), ("log1p", torch.log1p), ("expm1", torch.expm1)]
for name, op in ops:
    out = op(x)
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
