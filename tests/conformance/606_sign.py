import torch

x = torch.tensor([-2.0, 0.0, 3.0, -0.0], requires_grad=True)
s = torch.sign(x)
print(s)
print(s.grad_fn.name())
(s * x).sum().backward()
print(x.grad)
print(torch.tensor([-3, 0, 5]).sign())
print(x.sgn())
