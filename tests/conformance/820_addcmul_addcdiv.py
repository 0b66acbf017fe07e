# torch.addcmul and torch.addcdiv: `input + value * tensor1 * tensor2` and
# `input + value * tensor1 / tensor2` as functions, methods and in place; broadcasting, dtypes,
# gradients (first and second order), saved tensors and the errors PyTorch raises.
import torch

a = torch.linspace(-1.0, 1.0, 6).reshape(2, 3).requires_grad_()
b = torch.tensor([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
c = torch.tensor([[1.5, 2.0, -0.5], [0.1, 4.0, 3.0]], requires_grad=True)

y = torch.addcmul(a, b, c)
print(y)
y = torch.addcmul(a, b, c, value=0.1)
print(y)
y.sum().backward()
print(a.grad, b.grad, c.grad, sep="\n")
for t in (a, b, c):
    t.grad = None

y = torch.addcdiv(a, b, c, value=-0.5)
print(y)
(ga, gb, gc) = torch.autograd.grad(y.sum(), (a, b, c))
print(ga, gb, gc, sep="\n")

# methods, broadcasting and a 0-d value
row = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
col = torch.tensor([[2.0], [-4.0]], requires_grad=True)
y = row.addcmul(col, c, value=2)
print(y, y.shape)
y.sum().backward()
print(row.grad, col.grad, sep="\n")
y = a.addcdiv(row, col, value=torch.tensor(0.25))
print(y)
print(torch.addcmul(torch.tensor(1.0), col, row).shape)
print(torch.addcdiv(torch.zeros(1), torch.ones(3), torch.full((2, 1), 4.0)))

# in place
z = torch.ones(2, 3)
print(z.addcmul_(b.detach(), c.detach(), value=0.5))
print(z.addcdiv_(torch.ones(3), torch.tensor([2.0, 4.0, 8.0])))
leaf = torch.zeros(2, 3, requires_grad=True)
h = leaf * 1
h.addcmul_(b, c)
print(h.grad_fn.name())
h.sum().backward()
print(leaf.grad, b.grad, c.grad, sep="\n")
h = leaf.clone()
h.addcdiv_(b, c, value=3)
print(h.grad_fn.name(), h._version)

with torch.no_grad():
    leaf.addcmul_(b, c, value=-1)
print(leaf, leaf.requires_grad, leaf.grad_fn)

# grad_fn, saved tensors, second order
y = torch.addcmul(a, b, c, value=3)
print(y.grad_fn, y.grad_fn.next_functions)
y = torch.addcdiv(a, b, c)
print(y.grad_fn.name(), y.grad_fn._saved_value)
(gb,) = torch.autograd.grad(y.sum(), b, create_graph=True)
print(gb, gb.grad_fn.name())
print(torch.autograd.grad(gb.sum(), c))
(gc,) = torch.autograd.grad(torch.addcmul(a, b, c, value=2).sum(), c, create_graph=True)
print(gc)
print(torch.autograd.grad(gc.sum(), b))

# dtypes
ints = torch.tensor([1, 2, 3])
print(torch.addcmul(ints, ints, ints, value=2))
print(torch.addcmul(ints, ints, torch.tensor([0.5, 0.25, 2.0])))
print(torch.addcdiv(ints.double(), ints, torch.tensor([2.0, 4.0, 8.0])))
print(torch.addcmul(a.double().detach(), b.detach(), c.detach(), value=0.3))
print(torch.addcmul(torch.zeros(2, dtype=torch.float64), torch.ones(2), torch.ones(2)).dtype)

# errors
bad = [
    ("integer addcdiv", lambda: torch.addcdiv(ints, ints, ints)),
    ("broadcast", lambda: torch.addcmul(a, b, torch.ones(4))),
    ("in-place broadcast", lambda: torch.ones(3).addcmul_(col.detach(), row.detach())),
    ("leaf in place", lambda: b.addcdiv_(a, c)),
    ("view of a leaf in place", lambda: a.addcmul_(b, c)),
    ("not a tensor", lambda: torch.addcmul(a, b, 2.0)),
    ("value tensor", lambda: torch.addcmul(a, b, c, value=torch.ones(2))),
    ("bool", lambda: torch.addcmul(*(torch.tensor([True, False]),) * 3)),
]
for name, fn in bad:
    try:
        fn()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, e)
