# masked_scatter: the k-th True of the (broadcast) mask takes the k-th element of source.
import torch

x = torch.arange(12.0, dtype=torch.float64).reshape(3, 4).requires_grad_()
src = torch.linspace(-2.0, 3.5, 12, dtype=torch.float64).reshape(4, 3).requires_grad_()
w = torch.linspace(-1.0, 2.0, 12, dtype=torch.float64).reshape(3, 4)
mask = torch.tensor(
    [[True, False, True, False], [False, False, True, True], [True, True, False, False]]
)

y = x.masked_scatter(mask, src)
print(type(y.grad_fn).__name__, y)
gx, gs = torch.autograd.grad((y * w).sum(), (x, src))
print(gx, gs, sep="\n")

row = torch.tensor([False, True, True, False])
y = torch.masked_scatter(x, row, src)
print(y)
gx, gs = torch.autograd.grad((y * w).sum(), (x, src))
print(gx, gs, sep="\n")

# a larger source: the rest is unused and gets no gradient
big = torch.ones(20, dtype=torch.float64, requires_grad=True)
y = x.masked_scatter(x > 6, big * torch.arange(20.0, dtype=torch.float64))
y.sum().backward()
print(y, big.grad, sep="\n")

# in place on a non-leaf, and twice
z = x * 2
out = z.masked_scatter_(mask, src)
print(out is z, type(z.grad_fn).__name__)
z.masked_scatter_(~mask, -src)
print(z)
x.grad = None
(z * w).sum().backward()
print(x.grad)

# second order through the source
s = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
y = torch.zeros(2, 2, dtype=torch.float64).masked_scatter(
    torch.tensor([True, False, True, True]).reshape(2, 2), s * s
)
(g,) = torch.autograd.grad(y.pow(2).sum(), s, create_graph=True)
print(g, torch.autograd.grad(g.sum(), s)[0])

print(
    torch.zeros(2, 3, dtype=torch.int64).masked_scatter(
        torch.tensor([True, False, True]), torch.tensor([7, 8, 9, 10])
    )
)

checks = [
    lambda: x.masked_scatter(mask, torch.ones(5, dtype=torch.float64)),
    lambda: x.masked_scatter(mask.long(), src),
    lambda: x.masked_scatter(torch.tensor([True, False]), src),
    lambda: x.masked_scatter(mask, src.float()),
    lambda: (x * 1)[0].masked_scatter_(mask, src),
    lambda: (x * 1).masked_scatter_(torch.ones(2, 4, dtype=torch.bool), src),
    lambda: x.masked_scatter_(mask, src),
]
for check in checks:
    try:
        check()
        print("no error")
    except RuntimeError as e:
        print(type(e).__name__, e)
