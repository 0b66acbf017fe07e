import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 2
row = y[1]
row.mul_(x[0])
print(y)
print(y.grad_fn.name(), type(row.grad_fn).__name__)
print([type(f).__name__ for f, _ in y.grad_fn.next_functions])
print(y._version, row._version)
y.sum().backward()
print(x.grad)

x.grad = None
z = x.sin()
zt = z.t()
zt.add_(torch.tensor([10.0, 20.0]))
print(z)
print(type(zt.grad_fn).__name__)
(z * z).sum().backward()
print(x.grad)
