# Shuffled mini-batches with random.shuffle, a linear model trained with autograd.
import random

import torch

random.seed(42)
points = [(random.uniform(-2, 2), random.uniform(-2, 2)) for _ in range(24)]
X = torch.tensor(points, dtype=torch.float64)
y = 3.0 * X[:, 0] - 2.0 * X[:, 1] + 0.5
w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
b = torch.zeros((), dtype=torch.float64, requires_grad=True)
indices = list(range(len(points)))
for epoch in range(5):
    random.shuffle(indices)
    for start in range(0, len(indices), 8):
        batch = indices[start : start + 8]
        pred = X[batch] @ w + b
        loss = ((pred - y[batch]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
        w.grad = None
        b.grad = None
    print(epoch, indices[:6], round(loss.item(), 6))
print(w)
print(b)
