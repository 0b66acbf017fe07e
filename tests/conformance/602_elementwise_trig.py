import torch

x = torch.tensor([-0.5, 0.0, 0.25, 0.75], requires_grad=True)
for name in ("tan", "asin", "acos", "atan"):
    out = getattr(torch, name)(x)
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.asin(torch.tensor([2.0])))
