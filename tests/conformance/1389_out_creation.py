# The factories with out=: the values are made in out's dtype; out is resized silently (arange
# warns in its own words when the element count differs).
import warnings

import torch

print(torch.zeros(2, 3, out=torch.empty(0)))
print(torch.zeros((2,), out=torch.empty(0, dtype=torch.long)))
print(torch.ones(3, out=torch.empty(0, dtype=torch.bool)))
print(torch.ones(2, 2, out=torch.empty(0, dtype=torch.float64)))
print(torch.full((2, 2), 1.7, out=torch.empty(0)))
print(torch.full((3,), 1.7, out=torch.empty(0, dtype=torch.long)))
print(torch.full((2,), 3, out=torch.empty(0, dtype=torch.float64)))
print(torch.eye(3, out=torch.empty(0)))
print(torch.eye(2, 3, out=torch.empty(0, dtype=torch.long)))
print(torch.arange(5, out=torch.empty(0)))
print(torch.arange(0, 1, 0.25, out=torch.empty(0, dtype=torch.float64)))
print(torch.arange(0, 3, 1.5, out=torch.empty(0, dtype=torch.long)))
print(torch.arange(0.5, 3.7, 1.5, out=torch.empty(0, dtype=torch.long)))
print(torch.arange(2, 9, 3, out=torch.empty(0, dtype=torch.long)))
print(torch.linspace(0, 1, 5, out=torch.empty(0)))
print(torch.linspace(-1, 1, 4, out=torch.empty(0, dtype=torch.float64)))
print(torch.linspace(0, 10, 4, out=torch.empty(0, dtype=torch.long)))
print(torch.logspace(0, 2, 3, out=torch.empty(0)))
print(torch.empty(0, out=torch.empty(0)).shape)

o = torch.zeros(4)
r = torch.ones(2, 2, out=o)
print(r is o, o)

# arange's integral dtype counts in integers
print(torch.arange(0, 3, 1.5, dtype=torch.long))
print(torch.arange(-2.5, 1, 1, dtype=torch.long))
print(torch.arange(0, 3.5, 1, dtype=torch.int32))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.zeros(3, out=torch.ones(5))
    torch.full((2,), 1.0, out=torch.ones(4))
    torch.linspace(0, 1, 3, out=torch.ones(7))
    torch.eye(2, out=torch.ones(1))
    torch.arange(4, out=torch.ones(4))
    torch.arange(4, out=torch.ones(2, 2))
    torch.arange(6, out=torch.ones(7))
print(len(caught))
for item in caught:
    print(item.category.__name__, str(item.message).split(" (Triggered internally")[0])

for name, fn, args in [
    ("arange", torch.arange, (3,)),
    ("linspace", torch.linspace, (0, 1, 3)),
    ("logspace", torch.logspace, (0, 1, 3)),
]:
    try:
        fn(*args, out=torch.empty(0, dtype=torch.bool))
    except NotImplementedError as error:
        print(name, "NotImplementedError:", error)
