import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
e = x.exp()
lg = x.log()
print(e)
print(lg)
print(torch.exp(x), torch.log(x))
print(e.grad_fn.name(), lg.grad_fn.name())
(e + lg).sum().backward()
print(x.grad)
