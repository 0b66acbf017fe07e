# sort/topk/kthvalue with out=(values, indices) and msort with one out.
import torch

x = torch.tensor([[3.0, -1.0, 2.5, 0.0], [1.5, 4.0, -2.0, 2.0]])
vals, idx = torch.empty(0), torch.empty(0, dtype=torch.long)

r = torch.sort(x, out=(vals, idx))
print(r)
print(type(r).__name__, r.values is vals, r.indices is idx)
print(torch.sort(x, 0, out=(vals, idx)))
print(torch.sort(x, dim=1, descending=True, out=(vals, idx)))
print(torch.sort(x, stable=True, out=(vals, idx)))
r = torch.topk(x, 2, out=(vals, idx))
print(r)
print(type(r).__name__, r[0] is vals)
print(
    torch.topk(x, 1, dim=0, largest=False, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
)
r = torch.kthvalue(x, 2, out=(vals, idx))
print(r)
print(type(r).__name__)
print(torch.kthvalue(x, 1, 0, keepdim=True, out=(vals, idx)))
print(torch.msort(x, out=torch.empty(0)))

for name, fn, args in [
    ("sort", torch.sort, ()),
    ("topk", torch.topk, (2,)),
    ("kthvalue", torch.kthvalue, (2,)),
]:
    for bad in [
        (torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)),
        (torch.empty(0), torch.empty(0, dtype=torch.int32)),
    ]:
        try:
            fn(x, *args, out=bad)
        except RuntimeError as error:
            print(name, "RuntimeError:", error)
try:
    torch.msort(x, out=torch.empty(0, dtype=torch.float64))
except RuntimeError as error:
    print("msort RuntimeError:", error)
for name, fn, args in [("topk", torch.topk, (2,)), ("kthvalue", torch.kthvalue, (2,))]:
    try:
        fn(x, *args, out=torch.empty(0))
    except TypeError as error:
        print(name, "TypeError:", error)
