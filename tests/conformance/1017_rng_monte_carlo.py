import math

import torch

# Monte Carlo estimates with torch.rand / torch.randn, as in intro tutorials.
torch.manual_seed(0)
n = 100000
points = torch.rand(n, 2)
inside = (points.pow(2).sum(dim=1) <= 1).sum()
print("inside", inside.item(), "pi ~", 4 * inside.item() / n)

# the mean of exp(Z) for Z ~ N(0, 1) is e ** 0.5
z = torch.randn(n, dtype=torch.float64)
print(round(z.exp().mean().item(), 4), round(math.exp(0.5), 4))

# a random walk
torch.manual_seed(1)
steps = torch.randint(0, 2, (1000,)) * 2 - 1
walk = steps.cumsum(0)
print(walk[:10], walk[-1], walk.max(), walk.min())

# bootstrap the mean of a sample
torch.manual_seed(2)
sample = torch.randn(50) * 2 + 5
means = torch.stack([sample[torch.randint(0, 50, (50,))].mean() for _ in range(200)])
print(round(sample.mean().item(), 4), round(means.std().item(), 4))

# shuffling a dataset with randperm
perm = torch.randperm(12)
print(perm, torch.arange(12)[perm].view(3, 4))
