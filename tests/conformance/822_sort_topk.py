# sort, argsort, msort, topk, kthvalue: values, indices, ties, NaN, gradients, grad_fns, errors.
import torch

x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [float("nan"), 0.0, -1.0, 5.0]], requires_grad=True)

r = torch.sort(x)
print(r)
print(type(r).__name__, r.values.grad_fn.name(), r.indices.dtype)
values, indices = x.sort(dim=0, descending=True)
print(values)
print(indices)
print(torch.sort(x, stable=True, descending=True))
print(torch.argsort(x, dim=1, descending=True))
print(x.argsort(stable=True))
print(torch.msort(x))
print(x.msort().grad_fn)


# ties: stable=True keeps equal elements in their order; stable=False, topk and kthvalue may put
# equal elements in any order (PyTorch documents it), so there only the values are printed, and
# that the indices pick them.
def picks(src, r):
    return torch.equal(src[r.indices], r.values)


t = torch.tensor([1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0])
print(torch.sort(t, stable=True).indices)
print(torch.sort(t, stable=True, descending=True).indices)
r = torch.sort(t)
print(r.values, picks(t, r))
r = torch.sort(t, descending=True)
print(r.values, picks(t, r))
print(torch.argsort(t[:10], stable=True))
f = torch.tensor([2.0, float("nan"), -0.0, 2.0, 0.0, float("nan"), 1.0] * 3)
print(torch.sort(f, stable=True))
print(torch.sort(f, descending=True, stable=True).indices)
print(torch.argsort(f, stable=True))
g = torch.tensor([2.5, float("nan"), -0.5, 1.0, 0.0, 3.0, -2.0])
print(torch.sort(g))
print(torch.sort(g, descending=True).indices, torch.argsort(g, descending=True))

# topk
print(torch.topk(x, 2))
print(x.topk(2, dim=1, largest=False))
r = torch.topk(x, 3, sorted=False)
print(r.values.sort(dim=1, descending=True).values)
print(torch.topk(g, 3), torch.topk(g, 3, largest=False).indices)
r = torch.topk(t, 5)
print(r.values, picks(t, r))
r = torch.topk(torch.arange(200.0) % 7, 3)
print(r.values, picks(torch.arange(200.0) % 7, r))
print(torch.topk(x, 0))

# kthvalue
print(torch.kthvalue(x, 2).values)
print(x.kthvalue(1, dim=0, keepdim=True))
r = torch.kthvalue(t, 12)
print(r.values, picks(t, r))
print(torch.kthvalue(g, 3), torch.kthvalue(g, 7))

# 0-d and empty
s = torch.tensor(4.0, requires_grad=True)
print(torch.sort(s), torch.topk(s, 1), torch.kthvalue(s, 1))
print(torch.sort(torch.zeros(0, 3)))
print(torch.argsort(torch.tensor(2)))

# gradients
w = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
(torch.sort(x, 1).values * w).sum().backward()
print(x.grad)
x.grad = None
(torch.sort(x, 0, descending=True).values * w).sum().backward()
print(x.grad)
x.grad = None
(x.topk(2).values * w[:, :2]).sum().backward()
print(x.grad)
x.grad = None
(x.kthvalue(3).values * torch.tensor([10.0, 20.0])).sum().backward()
print(x.grad)
x.grad = None

# second order through create_graph
y = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], requires_grad=True)
v = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
(g,) = torch.autograd.grad(y.sort(1).values, y, v, create_graph=True)
print(g)
print(g.grad_fn.name(), g.grad_fn.next_functions[1][0].name())
(gv,) = torch.autograd.grad((g * g).sum(), v)
print(gv)
out = (y.sort(1).values ** 2 * v).sum()
(gy,) = torch.autograd.grad(out, y, create_graph=True)
print(gy)
(hy,) = torch.autograd.grad(gy.sum(), y)
print(hy)
(g2,) = torch.autograd.grad(y.kthvalue(2).values, y, v[:, 0], create_graph=True)
print(g2, g2.grad_fn.next_functions[1][0].name())


# errors
def attempt(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: torch.topk(x, 5))
attempt(lambda: torch.topk(x, -1))
attempt(lambda: torch.topk(x, 1, dim=2))
attempt(lambda: torch.topk(x, 1.5))
attempt(lambda: torch.sort(x, 3))
attempt(lambda: torch.sort(x, 1, stable=True))
attempt(lambda: x.sort(1, stable=True))
attempt(lambda: torch.argsort(x, -3))
attempt(lambda: torch.kthvalue(x, 5))
attempt(lambda: torch.kthvalue(x, 0))
attempt(lambda: torch.kthvalue(torch.zeros(2, 0), 1))
