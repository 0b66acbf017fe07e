import torch

torch.manual_seed(42)
state = torch.get_rng_state()
print(state.dtype, state.shape, state[:16])
a = torch.randn(5)
torch.set_rng_state(state)
b = torch.randn(5)
print(torch.equal(a, b), a)

# the state moves with every draw
torch.rand(3)
print(torch.equal(torch.get_rng_state(), state))

# saving mid-stream (including a pending normal) and resuming
torch.manual_seed(7)
torch.randn(1)
saved = torch.get_rng_state()
x = torch.randn(3)
torch.set_rng_state(saved)
print(torch.equal(x, torch.randn(3)), x)

with torch.random.fork_rng():
    inside = torch.rand(3)
after = torch.rand(3)
print(torch.equal(inside, after))
print(torch.random.initial_seed())
torch.random.manual_seed(3)
print(torch.rand(2))
s = torch.random.get_rng_state()
torch.random.set_rng_state(s)
print(torch.rand(2))
