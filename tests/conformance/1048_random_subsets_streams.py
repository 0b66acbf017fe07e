# random.sample/choices pick subsets; separate random.Random streams per worker stay independent.
import random

import torch

data = torch.arange(20, dtype=torch.float32)
random.seed(11)
subset = random.sample(range(len(data)), 5)
print(subset, data[subset])
boot = random.choices(range(len(data)), k=6)
print(boot, data[boot].mean())
workers = [random.Random(100 + rank) for rank in range(3)]
for rank, rng in enumerate(workers):
    picks = [rng.randrange(20) for _ in range(4)]
    print(rank, picks, round(rng.gauss(0, 1), 12))
again = random.Random(100)
print([again.randrange(20) for _ in range(4)])
w = torch.tensor([random.uniform(-1, 1) for _ in range(3)], requires_grad=True)
loss = sum((w[i] - i) ** 2 for i in random.sample(range(3), 3))
loss.backward()
print(w.grad)
