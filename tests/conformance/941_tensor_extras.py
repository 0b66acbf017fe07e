# Tensor methods and properties: type_as, new_full, is_signed, nbytes/itemsize, is_nonzero,
# is_same_size, output_nr, split_with_sizes, sum_to_size, byte/char, conj no-ops, mT/H/mH/adjoint
import torch

x = torch.tensor([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
i = torch.tensor([1, 2, 3])
print(i.type_as(x), x.type_as(i), x.type_as(x) is x)
y = x.type_as(torch.ones(1, dtype=torch.float64))
print(y.grad_fn.name(), y.dtype)
print(
    x.new_full((2,), 3.5),
    i.new_full((1, 2), 7),
    x.new_full([2], 1, dtype=torch.int32, requires_grad=False),
)
print(
    x.is_signed(),
    torch.tensor([1], dtype=torch.uint8).is_signed(),
    torch.tensor([True]).is_signed(),
    x.is_complex(),
    x.is_floating_point(),
)
print(x.nbytes, x.itemsize, i.nbytes, i.itemsize, x.element_size(), x[0].nbytes)
print(torch.tensor([0.0]).is_nonzero(), torch.tensor([2]).is_nonzero())
for bad in [lambda: torch.tensor([1, 2]).is_nonzero(), lambda: torch.tensor([]).is_nonzero()]:
    try:
        bad()
    except RuntimeError as e:
        print("err", e)
print(x.is_same_size(torch.ones(2, 3)), x.is_same_size(torch.ones(3, 2)))
a, b = x.unbind(0)
print(x.output_nr, a.output_nr, b.output_nr, (x * 2).output_nr)
parts = x.split_with_sizes([1, 2], dim=1)
print([p.shape for p in parts], parts[1].grad_fn.name())
s = x.sum_to_size(1, 3)
print(s, s.grad_fn.name())
print(x.sum_to_size((2, 1)).shape, x.sum_to_size(2, 3) is x)
print(
    x.is_cpu,
    x.byte(),
    x.char(),
    x.resolve_conj() is x,
    x.resolve_neg() is x,
    x.is_conj(),
    x.is_neg(),
    x.conj() is x,
)
print(x.mT.shape, x.mT.grad_fn.name(), x.H.shape, x.mH.grad_fn.name(), x.adjoint().grad_fn.name())
try:
    print(torch.ones(3).mT)
except RuntimeError as e:
    print("err", e)
try:
    x.sum_to_size(3, 1)
except RuntimeError as e:
    print("err", e)
