import torch

x = torch.tensor([0.5, 1.0, 1.5, 2.0], requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = x.sin()
y[1:3].mul_(w)
y[0] = w * w
loss = (y * y).sum()
gx, gw = torch.autograd.grad(loss, (x, w), create_graph=True)
print(gx)
print(gw)
print(gx.grad_fn is not None, gw.grad_fn is not None)
hx, hw = torch.autograd.grad(gx.sum() + gw, (x, w))
print(hx)
print(hw)
