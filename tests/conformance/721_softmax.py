import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
s = F.softmax(x, dim=1)
print(s)
print(s.grad_fn.name())
(s * torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])).sum().backward()
print(x.grad)
x.grad = None
ls = F.log_softmax(x, dim=-1)
print(ls)
print(ls.grad_fn.name())
ls[:, 0].sum().backward()
print(x.grad)
print(x.softmax(0))
print(torch.softmax(x, dim=1).sum(1))
print(torch.log_softmax(torch.tensor([1000.0, 0.0]), dim=0))
