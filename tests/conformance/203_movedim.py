import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
y = x.movedim(0, -1)
print(y.shape, y.grad_fn, y.grad_fn._saved_dims)
z = torch.moveaxis(x, (0, 1), (2, 0))
print(z.shape, z.is_contiguous())
(y * torch.arange(24.0).reshape(3, 4, 2)).sum().backward()
print(x.grad)
for source, destination in [(0, 3), ((0, 1), (2,)), ((0, 0), (1, 2))]:
    try:
        x.movedim(source, destination)
    except (RuntimeError, IndexError) as error:
        print(type(error).__name__, error)
