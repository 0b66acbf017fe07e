import torch
from torch.autograd import Variable

v = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
print(v)
print(type(v).__name__, v.requires_grad, v.is_leaf)
w = Variable(torch.ones(2))
print(w, w.requires_grad)
(v * v).sum().backward()
print(v.grad)
print(isinstance(v, torch.Tensor))
