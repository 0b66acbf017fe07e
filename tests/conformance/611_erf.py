import torch

x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
out = torch.erf(x)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)
x.grad = None
out = x.erfc()
print(out)
out.sum().backward()
print(x.grad)
