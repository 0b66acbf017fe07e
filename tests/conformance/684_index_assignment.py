import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 2
y[1] = 100.0
print(y)
print(y.grad_fn.name())
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)

x.grad = None
z = x.clone()
z[1:3] = x[0:2] * 10
print(z)
print(z.grad_fn.name())
z.sum().backward()
print(x.grad)

w = torch.zeros(2, 3)
w[0] = torch.tensor([1.0, 2.0, 3.0])
w[:, 1] = 9.0
w[w > 2] = -1.0
print(w)
try:
    x[0] = 5.0
except RuntimeError as e:
    print(type(e).__name__, e)
a = torch.zeros(3)
b = torch.tensor(2.0, requires_grad=True)
a[1] = b
print(a)
a.sum().backward()
print(b.grad)
