import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 6.0]], requires_grad=True)
p = x.prod()
print(p)
print(p.grad_fn.name())
p.backward()
print(x.grad)
x.grad = None
q = x.prod(1)
print(q)
print(q.grad_fn.name())
q.sum().backward()
print(x.grad)
y = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
torch.prod(y).backward()
print(y.grad)
print(x.prod(0, keepdim=True))
print(torch.tensor([1, 2, 3, 4]).prod())
