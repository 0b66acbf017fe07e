# max/min/median along a dim write (values, indices) into out=(values, indices): the result is a
# torch.return_types.<name>_out holding the very tensors given.
import torch

m = torch.tensor([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75], [1.0, 2.5, -2.0], [0.0, 4.0, 1.0]])
values = torch.empty(0)
indices = torch.empty(0, dtype=torch.long)

r = torch.max(m, 1, out=(values, indices))
print(r)
print(type(r).__name__, r.values is values, r.indices is indices, r[0] is values)
v, i = r
print(v, i)

r = torch.min(m, 0, out=(values, indices))
print(r)
print(values, indices)

r = torch.max(m, 1, keepdim=True, out=[values, indices])
print(type(r).__name__, values.shape, indices.shape)
print(r)

r = torch.median(m, 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
print(r)
r = torch.median(m, 1, keepdim=True, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
print(r)

# the same buffers reused for the next call
buf = (torch.empty(0), torch.empty(0, dtype=torch.long))
for dim in (0, 1):
    torch.max(m, dim, out=buf)
    print(dim, buf[0], buf[1])

for bad in [
    (torch.empty(0), torch.empty(0)),
    (torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)),
    (torch.empty(0), torch.empty(0, dtype=torch.int32)),
]:
    try:
        torch.max(m, 1, out=bad)
    except RuntimeError as error:
        print("RuntimeError:", error)
for bad in [
    (torch.empty(0), torch.empty(0)),
    (torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)),
    (torch.empty(0), torch.empty(0, dtype=torch.int32)),
]:
    try:
        torch.median(m, 1, out=bad)
    except RuntimeError as error:
        print("RuntimeError:", error)
try:
    torch.min(m, 1, out=(torch.empty(0),))
except TypeError as error:
    print("TypeError:", error)
