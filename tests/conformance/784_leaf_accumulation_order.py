# A leaf accumulates as soon as its gradient is complete, before any other ready node
# (PyTorch gives AccumulateGrad the largest sequence number); leaves made ready together keep
# the ready queue's order.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = torch.tensor(4.0, requires_grad=True)
for name, t in (("a", a), ("b", b), ("c", c)):
    t.register_hook(lambda g, name=name: print("leaf", name, g))

y = a * b
y.register_hook(lambda g: print("y", g))
u = c * 2.0
u.register_hook(lambda g: print("u", g))
z = y * c + u * b
z.backward()

print("-- leaf used before the intermediate it waits beside")
w = b * a
w.register_hook(lambda g: print("w", g))
v = w * w + a * 3.0 + c * w
v.backward()

print("-- three leaves ready at once")
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, 4.0], requires_grad=True)
r = torch.tensor([5.0, 6.0], requires_grad=True)
for name, t in (("p", p), ("q", q), ("r", r)):
    t.register_hook(lambda g, name=name: print("leaf", name, g))
s = torch.stack([p, q, r])
s.register_hook(lambda g: print("stack", g))
(s * s).sum().backward()
(torch.cat([p, q, r]) * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])).sum().backward()
print(p.grad, q.grad, r.grad)
