# Shape ops built from views, cat and slices: the stacks (hstack/vstack/dstack/column_stack/
# row_stack), tensor_split and h/v/dsplit, roll, diff (n, prepend, append), ravel,
# broadcast_to, atleast_nd, fliplr/flipud, meshgrid; values, grad_fn names, gradients, errors
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
v = torch.tensor([1.0, 4.0, 9.0], requires_grad=True)

for name, out in [
    ("hstack", torch.hstack([x, x[:, :1]])),
    ("vstack", torch.vstack([x, v])),
    ("row_stack", torch.row_stack((v, v))),
    ("dstack", torch.dstack([v, v])),
    ("column_stack", torch.column_stack([v, x.t()])),
    ("roll", torch.roll(x, 1)),
    ("roll2", x.roll((1, -1), (0, 1))),
    ("diff", torch.diff(v)),
    ("diff2", torch.diff(x, n=2, dim=1, prepend=x[:, :1], append=x)),
    ("ravel", torch.ravel(x.t())),
    ("broadcast_to", torch.broadcast_to(v, (2, 3))),
    ("atleast_3d", torch.atleast_3d(v)),
    ("fliplr", torch.fliplr(x)),
    ("flipud", x.flipud()),
]:
    print(name, out, out.grad_fn.name())
    out.sum().backward()

print(x.grad)
print(v.grad)

for piece in torch.tensor_split(torch.arange(7), 3):
    print(piece)
print(torch.tensor_split(x, [1, 5], dim=1))
print(x.hsplit([1]), torch.vsplit(x, 2))
print(torch.dsplit(torch.arange(8).reshape(1, 2, 4), [1, 3]))
print(torch.atleast_1d(torch.tensor(3), v))
print(torch.diff(torch.tensor([True, False, False])), torch.diff(torch.tensor([1, 5, 2]), n=0))

gx, gy = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([10, 20]), indexing="xy")
print(gx, gy)
gx, gy = torch.meshgrid(v, v[:2], indexing="ij")
print(gx.grad_fn, gx.grad_fn.next_functions[0][0])
(gx * gy).sum().backward()
print(v.grad)

for bad in [
    lambda: torch.hstack([]),
    lambda: torch.vstack(x),
    lambda: torch.roll(x, (1, 2), 0),
    lambda: torch.diff(torch.tensor(1.0)),
    lambda: torch.diff(x, prepend=v),
    lambda: torch.hsplit(x, 2),
    lambda: torch.vsplit(v, 1),
    lambda: torch.tensor_split(x, 0),
    lambda: torch.fliplr(v),
    lambda: torch.broadcast_to(v, (2, 4)),
    lambda: torch.meshgrid(v, v, indexing="yx"),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
