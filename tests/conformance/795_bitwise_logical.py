# Bitwise and logical ops on bool and integer tensors: `&`, `|`, `~`, torch.bitwise_*,
# torch.logical_*, their methods and in-place forms, and PyTorch's errors for float tensors.
import torch

a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
i = torch.tensor([5, 3, -2])
j = torch.tensor([1, 6, 7])
f = torch.tensor([1.0, 0.0, 2.0])
print(a & b, a | b, ~a)
print(i & j, i | j, ~i, i & 3, 3 | i, i & True)
print(torch.bitwise_and(i, j), torch.bitwise_or(a, b), torch.bitwise_xor(i, j))
print(torch.bitwise_xor(a, b), torch.bitwise_not(i), torch.bitwise_not(a))
print(torch.logical_and(i, f), torch.logical_or(a, f), torch.logical_xor(i, j))
print(torch.logical_xor(f, f), torch.logical_and(f, f).dtype, torch.logical_not(f))
print(a & i, (i > 0) & (f > 0), (i > 0) | (f > 0))
print(i.bitwise_and(j), a.logical_or(b), i.bitwise_not(), i.bitwise_xor(2), f.logical_and(i))
for name, fn in [
    ("f & f", lambda: f & f),
    ("~f", lambda: ~f),
    ("f | 1", lambda: f | 1),
    ("i & 1.5", lambda: i & 1.5),
    ("bitwise_xor", lambda: torch.bitwise_xor(f, i)),
    ("bitwise_not", lambda: torch.bitwise_not(f)),
    ("bitwise_and float64", lambda: torch.bitwise_and(f.double(), 1)),
    ("logical_xor scalar", lambda: torch.logical_xor(f, 0)),
    ("logical_and scalar first", lambda: torch.logical_and(1, f)),
]:
    try:
        print(name, fn())
    except (RuntimeError, TypeError, NotImplementedError) as e:
        print(name, type(e).__name__, e)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
mask = (x > 1) & (x < 3)
print(mask, mask.requires_grad, torch.logical_and(x > 1, x < 3).requires_grad)
y = torch.where(mask, x * 2, x)
y.sum().backward()
print(x.grad)

m = i.clone()
m &= j
print(m)
m |= 8
print(m)
m.bitwise_xor_(1)
print(m)
k = a.clone()
k.logical_and_(b)
print(k)
k |= torch.tensor([False, True, True])
print(k)
try:
    g = f.clone()
    g &= 1
except NotImplementedError as e:
    print(type(e).__name__, e)
