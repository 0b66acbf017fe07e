# cat/concat/concatenate/stack with out=: any out dtype the inputs can be cast to.
import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[5.0, 6.0]])
print(torch.cat([a, b], out=torch.empty(0)))
print(torch.cat((a, a), 1, out=torch.empty(0)))
print(torch.concat([a, b], dim=0, out=torch.empty(0)))
print(torch.concatenate([a, a], 1, out=torch.empty(0)))
print(torch.cat([a, b], out=torch.empty(0, dtype=torch.float64)))
print(torch.stack([a, a], out=torch.empty(0)))
print(torch.stack([a, 2 * a], 2, out=torch.empty(0)))
print(torch.stack([a[0], a[1], b[0]], 1, out=torch.empty(0, dtype=torch.float64)))

i = torch.tensor([1, 2, 3])
print(torch.cat([i, i], out=torch.empty(0, dtype=torch.long)))
print(torch.cat([i, i], out=torch.empty(0)))
print(torch.stack([i, i], out=torch.empty(0, dtype=torch.int32)))
print(torch.cat([i > 1, i > 2], out=torch.empty(0, dtype=torch.long)))

# a preallocated buffer of the right shape is filled in place
buf = torch.zeros(3, 2)
view = buf.view(6)
torch.cat([a, b], out=buf)
print(view)

for dtype in (torch.long, torch.bool, torch.int32):
    try:
        torch.cat([a, b], out=torch.empty(0, dtype=dtype))
    except TypeError as error:
        print("TypeError:", error)
try:
    torch.stack([a, a], out=torch.empty(0, dtype=torch.long))
except TypeError as error:
    print("TypeError:", error)
try:
    torch.cat([i, i], out=torch.empty(0, dtype=torch.bool))
except TypeError as error:
    print("TypeError:", error)
