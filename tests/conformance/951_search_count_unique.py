# searchsorted (right/side/sorter/out_int32, batched), bucketize, histc, bincount (weights,
# minlength) and unique/unique_consecutive (inverse, counts, dim), with their refusals and the
# nodes of unique and weighted bincount that raise on backward
import torch

seq = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
v = torch.tensor([[3.0, 6.0, 9.5], [0.0, 1.0, 9.0]])
print(torch.searchsorted(seq, v))
print(torch.searchsorted(seq, v, right=True), torch.searchsorted(seq, v, side="right").dtype)
print(torch.searchsorted(seq, 4), torch.searchsorted(seq, v, out_int32=True).dtype)
rows = torch.tensor([[1, 3, 5], [2, 4, 6]])
print(torch.searchsorted(rows, torch.tensor([[3, 4], [3, 7]])))
unsorted = torch.tensor([30, 10, 20])
print(torch.searchsorted(unsorted, torch.tensor([15, 30]), sorter=torch.argsort(unsorted)))
print(torch.bucketize(torch.tensor([0.5, 3.0, 8.0, 10.0]), seq))
print(torch.bucketize(torch.tensor([0.5, 3.0, 8.0, 10.0]), seq, right=True, out_int32=True))
print(torch.bucketize(4, torch.tensor([1, 5])))

x = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.2, 3.9, 4.0], requires_grad=True)
h = torch.histc(x, bins=4, min=0, max=4)
print(h, h.requires_grad)
print(x.histc(bins=3), torch.histc(torch.tensor([2.0, 2.0], dtype=torch.float64), bins=4))

i = torch.tensor([0, 2, 2, 5, 1, 2])
print(torch.bincount(i), i.bincount(minlength=8))
w = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5, 3.0], requires_grad=True)
b = torch.bincount(i, weights=w)
print(b, b.grad_fn.name())
print(torch.bincount(i, weights=torch.tensor([1, 2, 3, 4, 5, 6])))
try:
    b.sum().backward()
except Exception as e:
    print(type(e).__name__, e)

y = torch.tensor([[2, 1, 2], [3, 1, 2], [2, 1, 2]])
print(torch.unique(y))
print(torch.unique(y, return_inverse=True, return_counts=True))
print(torch.unique(y, dim=0, return_inverse=True, return_counts=True))
print(y.unique(dim=1, return_counts=True))
z = torch.tensor([3.0, 1.0, 3.0, 2.0], requires_grad=True)
u = torch.unique(z)
print(u, torch.unique(z, dim=0).grad_fn)
try:
    u.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_counts=True))
print(torch.unique_consecutive(y, return_inverse=True, dim=0))
print(torch.unique_consecutive(z))

for bad in [
    lambda: torch.searchsorted(seq, v, side="left", right=True),
    lambda: torch.searchsorted(rows, torch.tensor([3])),
    lambda: torch.searchsorted(seq, v, out=torch.empty(2, 3)),
    lambda: torch.bucketize(v, rows),
    lambda: torch.histc(torch.tensor([1, 2]), bins=2),
    lambda: torch.histc(torch.tensor([1.0]), bins=2, min=2, max=1),
    lambda: torch.bincount(torch.tensor([-1, 2])),
    lambda: torch.bincount(i, weights=torch.ones(2)),
    lambda: torch.unique(y, dim=2),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
