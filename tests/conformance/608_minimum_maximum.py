import torch

a = torch.tensor([1.0, 5.0, 3.0, 2.0], requires_grad=True)
b = torch.tensor([4.0, 2.0, 3.0, 2.0], requires_grad=True)
mx = torch.maximum(a, b)
mn = torch.minimum(a, b)
print(mx)
print(mn)
print(mx.grad_fn.name(), mn.grad_fn.name())
mx.sum().backward()
print(a.grad, b.grad)
a.grad = None
b.grad = None
mn.sum().backward()
print(a.grad, b.grad)
print(torch.max(a, b))
print(torch.min(a, b))
print(torch.maximum(torch.tensor([1, 7]), torch.tensor([3, 2])))
