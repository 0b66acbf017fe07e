import torch

x = torch.tensor([0.25, 1.0, 4.0, 9.0], requires_grad=True)
outs = [
    ("sqrt", x.sqrt()),
    ("rsqrt", x.rsqrt()),
    ("reciprocal", x.reciprocal()),
    ("square", x.square()),
]
for name, out in outs:
    print(name, out)
    print(out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    x.grad = None
print(torch.sqrt(torch.tensor([-1.0, 0.0])))
z = torch.tensor([0.0], requires_grad=True)
z.sqrt().backward()
print(z.grad)
