import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
print(y.grad_fn.name())
y += 1
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print(y.grad_fn.next_functions)
y *= 3
print(y)
print(y.grad_fn.name())
y -= 1
print(y.grad_fn.name())
y /= 2
print(y.grad_fn.name())
print(y.is_leaf)
y.sum().backward()
print(x.grad)

z = x + 0
z.add_(x)
z.mul_(2)
print(z)
print(z.grad_fn.name())
