import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, -1.0], requires_grad=True)
f = (x * x * y).sum()
gx, gy = torch.autograd.grad(f, [x, y], create_graph=True)
print(gx)
print(gy)
mixed = torch.autograd.grad(gx.sum(), [x, y])
print(mixed)
z = torch.tensor(2.0, requires_grad=True)
h = z * z
(gz,) = torch.autograd.grad(h, z)
print(gz, gz.requires_grad)
try:
    torch.autograd.grad(gz, z)
except RuntimeError as e:
    print(type(e).__name__, e)
