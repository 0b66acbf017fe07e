import torch

y = torch.tensor([1.0, -1.0, 0.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 1.0, -1.0, 0.0], requires_grad=True)
out = torch.atan2(y, x)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(y.grad)
print(x.grad)
print(y.atan2(torch.tensor(2.0)))
