import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.5, 4.0], requires_grad=True)

a = x + y
b = x + 2
c = 2 + x
d = x + 2.5
e = x.add(y)
f = torch.add(x, y)
g = torch.add(x, 3)
for out in (a, b, c, d, e, f, g):
    print(out)
total = a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum() + g.sum()
total.backward()
print(x.grad)
print(y.grad)
print(1 + 2.5 + torch.tensor(1.0))
