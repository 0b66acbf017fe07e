import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * w
z = (y * y).sum()

gx, gw = torch.autograd.grad(z, [x, w], retain_graph=True)
print(gx)
print(gw)
print(x.grad, w.grad)
print(torch.autograd.grad(z, y, retain_graph=True))
print(torch.autograd.grad(z, (x,)))
try:
    torch.autograd.grad(z, x)
except RuntimeError as e:
    print(type(e).__name__, e)

y = x * w
print(torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.0, 2.0])))
try:
    torch.autograd.grad(y, x)
except RuntimeError as e:
    print(type(e).__name__, e)
y = x * w
print(torch.autograd.grad([y.sum(), (x * 2).sum()], [x]))
