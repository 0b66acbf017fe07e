import torch
import torch.nn.functional as F

x = torch.tensor([-30.0, -1.0, 0.0, 1.0, 30.0], requires_grad=True)
out = F.softplus(x)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)
x.grad = None
out = F.softplus(x, beta=2.0, threshold=5.0)
print(out)
out.sum().backward()
print(x.grad)
