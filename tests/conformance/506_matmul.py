import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
v = torch.tensor([1.0, -1.0], requires_grad=True)

print(a @ b)
print(torch.matmul(a, b))
print(torch.mm(a, b))
print(a.mm(b))
print(a.matmul(v))
print(a @ v)
print(v @ b)
print(a.t())
print(b.t().shape)

(a @ b).sum().backward()
print(a.grad)
print(b.grad)
a.grad = None
(a @ v).sum().backward()
print(a.grad)
print(v.grad)
print((a @ v).grad_fn.name(), (a @ b).grad_fn.name(), a.t().grad_fn.name())
print(torch.mm(a, b).grad_fn.name(), (v @ v).grad_fn.name())
