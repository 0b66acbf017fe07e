# Reading the gradient of a non-leaf: retain_grad, autograd.grad and a tensor hook.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)

y = x * w
y.retain_grad()
z = (y * y).sum()
z.backward()
print("y.grad via retain_grad:", y.grad)  # 2 * y

y = x * w
z = (y * y).sum()
print("dz/dy via autograd.grad:", torch.autograd.grad(z, y))


def show_grad(grad):
    print("hook sees dz/dy =", grad)


y = x * w
handle = y.register_hook(show_grad)
(y * 3).sum().backward()
handle.remove()
print("x.grad after both backward calls:", x.grad)
