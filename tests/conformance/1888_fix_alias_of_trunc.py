# torch.fix, the alias of torch.trunc (rounding toward zero), and its zero gradient.
import torch

x = torch.tensor([-1.5, 2.5], requires_grad=True)
y = torch.fix(x * 2)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad, torch.fix(torch.tensor(-0.7)))
