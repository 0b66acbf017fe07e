import torch

x = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
a = x.clamp(-1.0, 1.0)
b = torch.clamp(x, min=0.5)
c = x.clamp(max=0.0)
d = x.clamp_min(1.0)
e = x.clamp_max(-1.0)
f = x.clip(-0.5, 0.5)
for out in (a, b, c, d, e, f):
    print(out)
    print(out.grad_fn.name())
a.sum().backward()
print(x.grad)
x.grad = None
(b + c).sum().backward()
print(x.grad)
lo = torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0], requires_grad=True)
x.grad = None
g = torch.clamp(x, min=lo)
g.sum().backward()
print(g)
print(x.grad, lo.grad)
print(torch.tensor([1, 5, 9]).clamp(2, 6))
