# cumsum/cumprod with out=: in out's dtype (the input is cast first), dim forms, reuse.
import torch

x = torch.tensor([[0.6, 1.5, -2.25, 0.5], [1.0, 2.0, 0.5, -1.5]])
print(torch.cumsum(x, 1, out=torch.empty(0)))
print(torch.cumsum(x, 0, out=torch.empty(0)))
print(torch.cumsum(x, -1, out=torch.empty(0, dtype=torch.float64)))
print(torch.cumsum(x, 1, out=torch.empty(0, dtype=torch.long)))
print(torch.cumprod(x, 1, out=torch.empty(0)))
print(torch.cumprod(x, 0, out=torch.empty(0, dtype=torch.long)))
i = torch.tensor([3, 1, 4, 1, 5])
print(torch.cumsum(i, 0, out=torch.empty(0, dtype=torch.long)))
print(torch.cumsum(i, 0, out=torch.empty(0)))
print(torch.cumprod(i, 0, out=torch.empty(0, dtype=torch.int32)))

# the input may be its own out
y = x.clone()
print(torch.cumsum(y, 1, out=y) is y, y)

# sum into an integral out casts each element first: 0.6 + 0.6 is 0 there
print(torch.sum(torch.tensor([0.6, 0.6, 1.7]), 0, out=torch.empty(0, dtype=torch.long)))
print(torch.prod(torch.tensor([2.9, 1.5]), 0, out=torch.empty(0, dtype=torch.long)))
try:
    torch.cumsum(x, 0, out=torch.empty(0, dtype=torch.bool))
except NotImplementedError as error:
    print("NotImplementedError:", error)
