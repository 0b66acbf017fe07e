# Reusing an out tensor as PyTorch's warning advises: t.resize_(0) first, then no warning.
# resize_ and resize_as_ change the shape in place; shrinking keeps the first elements.
import warnings

import torch

values, doubled = torch.ones(5), torch.ones(5)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for n in (3, 2, 4):
        torch.linspace(0, 1, n, out=values.resize_(0))
        torch.mul(values, 2, out=doubled.resize_(0))
        print(values, doubled)
print(len(caught))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.mul(values, 2, out=doubled.resize_(2))
print(len(caught), doubled)

x = torch.arange(6.0)
v = x._version
r = x.resize_(2, 2)
print(r is x, x, x._version - v)
x.resize_(0)
print(x, x.shape, x._version - v)
x.resize_((3,))
print(x.shape, x)
y = torch.arange(4.0)
y.resize_(2)
y.add_(10)
y.resize_(4)
print(y)
z = torch.arange(6.0)
w = z.view(2, 3)
w.resize_(2)
print(w, z)
a = torch.arange(4.0)
a.resize_as_(torch.ones(2))
print(a)
s = torch.arange(4.0)[1:3]
s.resize_(1)
print(s)
e = torch.tensor([[1, 2], [3, 4]])
print(e.resize_(4))
print(e.resize_(torch.Size([1, 4])))
for label, call in [
    ("requires_grad", lambda: torch.ones(2, requires_grad=True).resize_(3)),
    ("negative", lambda: torch.ones(2).resize_(-1)),
    ("float", lambda: torch.ones(2).resize_(2.5)),
]:
    try:
        call()
    except (RuntimeError, TypeError) as error:
        print(label, type(error).__name__, error)
