import torch

x = torch.tensor([0.25, 1.0, 4.0, 9.0], requires_grad=True)
for name in ("sqrt", "rsqrt", "reciprocal", "square"):
    out = getattr(x, name)()
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.sqrt(torch.tensor([-1.0, 0.0])))
z = torch.tensor([0.0], requires_grad=True)
z.sqrt().backward()
print(z.grad)
