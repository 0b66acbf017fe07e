import torch

x = torch.tensor([-0.5, 0.0, 0.25, 0.75], requires_grad=True)
ops = [("tan", torch.tan), ("asin", torch.asin), ("acos", torch.acos), ("atan", torch.atan)]
for name, op in ops:
    out = op(x)
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.asin(torch.tensor([2.0])))
