import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
print(x[..., 0])
print(x[0, ...].shape, x[..., 1, :].shape, x[None].shape, x[:, None, :, None].shape)
print(x[0, None, 1])
print(x[..., None].shape)
y = x[1, ..., ::2]
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
