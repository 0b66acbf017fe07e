# out= on the matmul family and triangular/diagonal/inverse: out's dtype must be the result's.
import torch

a = torch.tensor([[1.0, 2.0, -1.0], [0.5, -3.0, 2.0]])
b = torch.tensor([[2.0, 0.0], [1.0, -1.0], [0.5, 4.0]])
s = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
v = torch.tensor([1.0, -2.0, 0.5])
w = torch.tensor([3.0, 1.0])

print(torch.mm(a, b, out=torch.empty(0)))
print(torch.matmul(a, b, out=torch.empty(0)))
print(torch.matmul(a, v, out=torch.empty(0)))
print(torch.matmul(torch.stack([a, 2 * a]), b, out=torch.empty(0)))
print(torch.mv(a, v, out=torch.empty(0)))
print(torch.bmm(torch.stack([a, -a]), torch.stack([b, b]), out=torch.empty(0)))
print(torch.addmm(s, a, b, out=torch.empty(0)))
print(torch.addmm(s, a, b, beta=0.5, alpha=2, out=torch.empty(0)))
print(torch.dot(v, v, out=torch.empty(0)))
print(torch.vdot(v, v, out=torch.empty(0)))
print(torch.inner(v, v, out=torch.empty(0)))
print(torch.outer(v, w, out=torch.empty(0)))
print(torch.outer(v, w, out=torch.empty(0, dtype=torch.float64)))
print(torch.tril(s, out=torch.empty(0)))
print(torch.triu(torch.ones(3, 3), 1, out=torch.empty(0)))
print(torch.tril(torch.ones(3, 4), -1, out=torch.empty(0)))
print(torch.diag(v, out=torch.empty(0)))
print(torch.diag(s, out=torch.empty(0)))
print(torch.inverse(s, out=torch.empty(0)))

for name, fn, args in [
    ("mm", torch.mm, (a, b)),
    ("matmul", torch.matmul, (a, v)),
    ("mv", torch.mv, (a, v)),
    ("addmm", torch.addmm, (s, a, b)),
    ("tril", torch.tril, (s,)),
    ("inverse", torch.inverse, (s,)),
]:
    for dtype in (torch.float64, torch.long):
        try:
            fn(*args, out=torch.empty(0, dtype=dtype))
        except RuntimeError as error:
            print(name, "RuntimeError:", error)
for name, fn, args in [
    ("dot", torch.dot, (v, v)),
    ("inner", torch.inner, (v, v)),
    ("diag", torch.diag, (v,)),
]:
    for dtype in (torch.float64, torch.long):
        try:
            fn(*args, out=torch.empty(0, dtype=dtype))
        except RuntimeError as error:
            print(name, "RuntimeError:", error)
