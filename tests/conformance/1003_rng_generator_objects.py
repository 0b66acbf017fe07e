import torch

g = torch.Generator()
print(g.initial_seed(), g.device)
g.manual_seed(123)
print(torch.rand(3, generator=g))
print(torch.randn(3, generator=g))
print(torch.randint(0, 100, (4,), generator=g))
print(torch.randperm(6, generator=g))
print(torch.normal(0.0, 1.0, size=(3,), generator=g))
print(torch.empty(3).uniform_(generator=g))

# the default generator is untouched by draws from g
torch.manual_seed(1)
first = torch.rand(2)
torch.manual_seed(1)
_ = torch.rand(5, generator=torch.Generator().manual_seed(9))
print(torch.equal(first, torch.rand(2)))

# two generators with the same seed agree
g1 = torch.Generator().manual_seed(2024)
g2 = torch.Generator().manual_seed(2024)
print(torch.equal(torch.randn(20, generator=g1), torch.randn(20, generator=g2)))

# a generator's state can be saved and restored
state = g1.get_state()
print(state.dtype, state.shape)
u = torch.rand(4, generator=g1)
g1.set_state(state)
print(torch.equal(u, torch.rand(4, generator=g1)))
print(g1.manual_seed(5) is g1, g1.initial_seed())
print(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 5, True, generator=g1))
print(torch.bernoulli(torch.full((6,), 0.5), generator=g1))
