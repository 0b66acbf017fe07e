import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    a = x * 2
    with torch.enable_grad():
        print(torch.is_grad_enabled())
        b = x * 2
    c = x * 2
print(a.requires_grad, b.requires_grad, c.requires_grad)
print(a.grad_fn, b.grad_fn.name(), c.grad_fn)

with torch.set_grad_enabled(False):
    d = x + 1
print(d.requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(True):
    e = x + 1
print(e.requires_grad)

torch.set_grad_enabled(False)
f = x * 3
print(f.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
g = x * 3
print(g.requires_grad, torch.is_grad_enabled())

with torch.no_grad():
    h = torch.tensor([1.0], requires_grad=True)
    k = h * 2
print(h.requires_grad, h.is_leaf, k.requires_grad, k.is_leaf)
