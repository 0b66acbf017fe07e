import torch

a = torch.tensor([1.0])
b = torch.tensor([1.0], requires_grad=True)
c = b * 2
d = a * 2
e = c.detach()
with torch.no_grad():
    f = b * 2
g = b.sum()
for name, t in (("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f), ("g", g)):
    print(name, t.is_leaf, t.requires_grad, t.grad_fn is None)
