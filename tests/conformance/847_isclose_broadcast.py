import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError, ValueError) as e:
        print(label, type(e).__name__ + ":", e)


nan, inf = float("nan"), float("inf")
a = torch.tensor([1.0, 2.0, nan, inf, -inf, 1e-9])
b = torch.tensor([1.0 + 1e-6, 2.1, nan, inf, inf, 0.0])

# isclose: |a - b| <= atol + rtol * |b|; equal infinities are close, NaNs only with equal_nan
attempt("isclose:", torch.isclose, a, b)
attempt("equal_nan:", torch.isclose, a, b, equal_nan=True)
attempt("loose:", torch.isclose, a, b, rtol=0.1, atol=1e-8)
attempt("positional tolerances:", torch.isclose, a, b, 0.1, 0.0, True)
attempt("method:", a.isclose, b, atol=1e-8)
attempt("method, keywords:", torch.ones(2).isclose, other=torch.ones(2), rtol=0.0, atol=0.0)
attempt("broadcast:", torch.isclose, torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 2.0, 3.0]))
attempt("0-d with 1-d:", torch.isclose, torch.tensor(1.0), torch.tensor([1.0, 2.0]))
attempt("empty:", torch.isclose, torch.ones(0), torch.ones(0))
attempt("requires grad:", torch.isclose, torch.ones(2, requires_grad=True), torch.ones(2))
attempt(
    "float32 rounding:", torch.isclose, torch.tensor([1.1]), torch.tensor([1.0]), rtol=0.1, atol=0
)
attempt(
    "float32 ulp:",
    torch.isclose,
    torch.tensor([1.0]),
    torch.tensor([1.0 + 2**-23]),
    rtol=0,
    atol=2**-24,
)
d1 = torch.tensor([1.0], dtype=torch.float64)
attempt("float64:", torch.isclose, d1, d1 + 1e-12, rtol=0, atol=0)
attempt("float64 loose:", torch.isclose, d1, d1 + 1e-12)
attempt("ints:", torch.isclose, torch.tensor([1, 2]), torch.tensor([1, 3]))
attempt(
    "ints, tolerance:",
    torch.isclose,
    torch.tensor([10, 20]),
    torch.tensor([11, 20]),
    rtol=0.1,
    atol=0,
)
attempt(
    "ints beyond float32:",
    torch.isclose,
    torch.tensor([16777217]),
    torch.tensor([16777216]),
    rtol=0,
    atol=0.1,
)
attempt("bools:", torch.isclose, torch.tensor([True, False]), torch.tensor([True, True]))
attempt(
    "bools, atol 5:",
    torch.isclose,
    torch.tensor([True, False]),
    torch.tensor([False, False]),
    atol=5,
)
attempt(
    "infinite atol:", torch.isclose, torch.tensor([1.0, inf]), torch.tensor([1e30, 1.0]), atol=inf
)
attempt(
    "half:",
    torch.isclose,
    torch.tensor([1.0], dtype=torch.float16),
    torch.tensor([1.001], dtype=torch.float16),
)
attempt("sizes:", torch.isclose, torch.ones(2), torch.ones(3))
attempt("float vs double:", torch.isclose, torch.ones(2), torch.ones(2, dtype=torch.float64))
attempt("long vs float:", torch.isclose, torch.tensor([1, 2]), torch.tensor([1.0, 3.0]))
attempt("negative rtol:", torch.isclose, a, b, rtol=-1.0)
attempt("negative atol:", torch.isclose, a, b, atol=-1e-9)
attempt("a number:", torch.isclose, a, 1.0)
attempt("allclose:", torch.allclose, torch.ones(2), torch.ones(1))
attempt("allclose sizes:", torch.allclose, torch.ones(2), torch.ones(3))
attempt("allclose dtypes:", torch.allclose, torch.ones(2), torch.ones(2, dtype=torch.float64))
attempt("allclose negative rtol:", torch.allclose, torch.ones(2), torch.ones(2), rtol=-0.5)

# broadcast_shapes: the shape without making tensors
attempt("shapes:", torch.broadcast_shapes, (2, 1), (3,), (1, 1, 3))
attempt("Size and list:", torch.broadcast_shapes, torch.Size([2, 1]), [4])
attempt("an int:", torch.broadcast_shapes, 3, (2, 1))
attempt("nothing:", torch.broadcast_shapes)
attempt("one:", torch.broadcast_shapes, (5, 0))
attempt("zero with one:", torch.broadcast_shapes, (0,), (1,))
attempt("None:", torch.broadcast_shapes, None)
attempt("mismatch:", torch.broadcast_shapes, (2,), (3,))
attempt("mismatch later:", torch.broadcast_shapes, (2, 3), (4, 3), (1,))
attempt("shorter first:", torch.broadcast_shapes, (3,), (2, 4))
attempt("two mismatches:", torch.broadcast_shapes, (2, 3), (4, 5))
attempt("zero with two:", torch.broadcast_shapes, (0,), (2,))
attempt("negative first:", torch.broadcast_shapes, (-1,), (3,))
attempt("negative later:", torch.broadcast_shapes, (2,), (-1,))
attempt("negative int:", torch.broadcast_shapes, -2)
attempt("a float size:", torch.broadcast_shapes, (2.0,))
attempt("a tensor:", torch.broadcast_shapes, torch.ones(2))

# broadcast_tensors: ExpandBackward0 views; a tensor already of the shape comes back as it is
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([[10.0], [20.0]], requires_grad=True)
p, q = torch.broadcast_tensors(x, y)
print(p, q, p.shape, q.shape)
print(p.grad_fn, p.grad_fn.next_functions, q.grad_fn.next_functions)
(p * q).sum().backward()
print(x.grad, y.grad)
r = torch.broadcast_tensors(x)
print(type(r).__name__, r, r[0] is x)
r = torch.broadcast_tensors(x, x)
print(r[0] is x, r[1] is x)
z = torch.ones(2, 3, requires_grad=True)
r = torch.broadcast_tensors(z, x)
print(r[0] is z, r[0].grad_fn, type(r[1].grad_fn).__name__)
r = torch.broadcast_tensors(torch.ones(3), torch.ones(2, 1), torch.ones(4, 1, 1))
print([tuple(t.shape) for t in r])
attempt("no tensors:", torch.broadcast_tensors)
attempt("dtypes kept:", torch.broadcast_tensors, torch.ones(2, dtype=torch.long), torch.ones(3, 1))
attempt("sizes:", torch.broadcast_tensors, torch.ones(2), torch.ones(3))
attempt("sizes, three:", torch.broadcast_tensors, torch.ones(2), torch.ones(2), torch.ones(4, 3))
attempt("two mismatches:", torch.broadcast_tensors, torch.ones(2, 3), torch.ones(4, 5))
attempt("a list:", torch.broadcast_tensors, [x, y])
attempt("a number:", torch.broadcast_tensors, x, 2.0)
attempt("write to expanded:", torch.broadcast_tensors(torch.ones(3), torch.ones(2, 1))[0].add_, 1)
