# cummax/cummin (torch.return_types, NaN and ties), repeat_interleave (int and tensor repeats),
# take_along_dim, diagflat, kron, tensordot, cartesian_prod, block_diag: values, dtypes,
# grad_fn names, gradients and errors
import torch

torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

r = torch.cummax(a, 1)
print(r)
print(r.values.grad_fn, r.indices.dtype)
r.values.sum().backward()
print(a.grad)
print(torch.cummin(torch.tensor([2.0, float("nan"), 0.0, float("nan"), -1.0]), 0))
print(torch.tensor([[3, 1, 1], [0, 5, 0]]).cummin(dim=-1))
print(torch.cummax(torch.tensor([False, True, False]), 0))

b = torch.arange(6.0).reshape(2, 3).requires_grad_()
for name, out in [
    ("repeat_interleave", b.repeat_interleave(2)),
    ("repeat_interleave_dim", torch.repeat_interleave(b, 2, dim=0)),
    ("repeat_interleave_tensor", torch.repeat_interleave(b, torch.tensor([2, 0, 1]), dim=1)),
    ("take_along_dim", torch.take_along_dim(b, b.argsort(dim=1, descending=True), dim=1)),
    ("take_along_dim_flat", b.take_along_dim(torch.tensor([5, 0, 5]))),
    ("diagflat", torch.diagflat(b[0], -1)),
    ("kron", torch.kron(b, torch.eye(2))),
    ("tensordot", torch.tensordot(b, b, dims=([1], [1]))),
    ("tensordot_full", torch.tensordot(b, b)),
    ("cartesian_prod", torch.cartesian_prod(b[0], b[1, :2])),
    ("block_diag", torch.block_diag(b, b[0, :2], torch.tensor(7.0))),
]:
    print(name, out, out.grad_fn.name())
    out.sum().backward()
print(b.grad)

print(torch.repeat_interleave(torch.tensor([2, 0, 3])))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1], [10]])))
print(torch.tensordot(torch.arange(24).reshape(2, 3, 4), torch.arange(12).reshape(3, 4), dims=2))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5])))
print(torch.block_diag(torch.tensor([[1]]), torch.tensor([[2.5, 1.0]])))

for bad in [
    lambda: torch.cummax(b, 2),
    lambda: torch.repeat_interleave(b, -1),
    lambda: torch.repeat_interleave(b, torch.tensor([1, 2]), dim=1),
    lambda: torch.take_along_dim(b, torch.tensor([[0.0]]), dim=1),
    lambda: torch.take_along_dim(b, torch.tensor([0]), dim=1),
    lambda: torch.tensordot(b, b, dims=1),
    lambda: torch.tensordot(b, b.long(), dims=1),
    lambda: torch.cartesian_prod(b),
    lambda: torch.block_diag(torch.zeros(1, 1, 1)),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
