import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
s = x.sigmoid()
r = x.relu()
a = x.abs()
print(s)
print(r)
print(a)
print(torch.sigmoid(x), torch.relu(x), torch.abs(x))
print(s.grad_fn.name(), r.grad_fn.name(), a.grad_fn.name())
s.sum().backward()
print(x.grad)
x.grad = None
r.sum().backward()
print(x.grad)
x.grad = None
a.sum().backward()
print(x.grad)
