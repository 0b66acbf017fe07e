# The random draws with out=: the same numbers as without it, drawn in out's dtype.
import torch

torch.manual_seed(0)
a = torch.rand(4)
torch.manual_seed(0)
o = torch.empty(0)
r = torch.rand(4, out=o)
print(r is o, torch.equal(a, o), o)

torch.manual_seed(1)
print(torch.rand(2, 3, out=torch.empty(0, dtype=torch.float64)))
torch.manual_seed(1)
print(torch.rand(2, 3, dtype=torch.float64))
torch.manual_seed(2)
print(torch.randn(5, out=torch.empty(0)))
torch.manual_seed(2)
print(torch.randn(5))
torch.manual_seed(3)
print(torch.randint(10, (6,), out=torch.empty(0, dtype=torch.long)))
torch.manual_seed(3)
print(torch.randint(10, (6,), out=torch.empty(0)))
torch.manual_seed(3)
print(torch.randint(3, 10, (2, 2), out=torch.empty(0, dtype=torch.int32)))
torch.manual_seed(4)
print(torch.randperm(6, out=torch.empty(0, dtype=torch.long)))
torch.manual_seed(5)
print(torch.normal(0.0, 2.0, (4,), out=torch.empty(0)))
torch.manual_seed(5)
print(torch.normal(torch.zeros(4), 2.0, out=torch.empty(4)))
torch.manual_seed(5)
print(torch.normal(torch.zeros(4), 2.0, out=torch.empty(2, 4)))
torch.manual_seed(5)
print(torch.normal(1.0, torch.ones(4), out=torch.empty(0)))
torch.manual_seed(6)
print(torch.bernoulli(torch.full((6,), 0.5), out=torch.empty(0)))
torch.manual_seed(6)
print(torch.bernoulli(torch.full((6,), 0.5), out=torch.empty(0, dtype=torch.long)))
torch.manual_seed(7)
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 2, out=torch.empty(0, dtype=torch.long)))

g = torch.Generator().manual_seed(8)
print(torch.rand(3, generator=g, out=torch.empty(0)))

for label, call in [
    ("rand", lambda: torch.rand(3, out=torch.empty(0, dtype=torch.long))),
    ("randn", lambda: torch.randn(3, out=torch.empty(0, dtype=torch.long))),
    ("normal", lambda: torch.normal(0.0, 1.0, (3,), out=torch.empty(0, dtype=torch.long))),
    ("multinomial", lambda: torch.multinomial(torch.ones(3), 2, out=torch.empty(0))),
    ("normal", lambda: torch.normal(torch.zeros(4), 1.0, out=torch.empty(0))),
]:
    try:
        call()
    except (RuntimeError, NotImplementedError) as error:
        print(label, type(error).__name__, error)
