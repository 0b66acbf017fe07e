import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y * y
y.retain_grad()
z.retain_grad()
out = z.sum()
out.backward()
print(y.grad)
print(z.grad)
print(x.grad)
print(y.retains_grad, z.retains_grad, x.retains_grad, out.retains_grad)
x.retain_grad()
print(x.retains_grad)
try:
    torch.tensor([1.0]).retain_grad()
except RuntimeError as e:
    print(type(e).__name__, e)
