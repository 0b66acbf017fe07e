import torch

# The first thing every tutorial does: fix the seed, then draw.
torch.manual_seed(0)
print(torch.rand(3))
print(torch.randn(2, 3))
print(torch.randint(0, 10, (6,)))
print(torch.randperm(8))

# The same seed gives the same numbers again.
torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
b = torch.rand(3)
print(torch.equal(a, b), a)

print(torch.initial_seed())
torch.manual_seed(2**40 + 17)
print(torch.initial_seed(), torch.rand(2))
torch.manual_seed(-1)
print(torch.initial_seed(), torch.randn(2))

# different seeds, different streams
for seed in (1, 42, 1234):
    torch.manual_seed(seed)
    print(seed, torch.rand(4), torch.randn(4))

# the generator manual_seed returns is the default one
g = torch.manual_seed(7)
print(g is torch.default_generator, g.initial_seed())
print(torch.rand(2, 2, dtype=torch.float64))
print(torch.randn(3, dtype=torch.float64))
print(torch.randint(5, (2, 3)), torch.randint(-3, 3, (4,)).dtype)
print(torch.randint(0, 2**40, (3,)))
