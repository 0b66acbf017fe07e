# Weights initialised from random.gauss (as older tutorials do), a two-layer net trained by hand.
import math
import random

import torch

random.seed(2024)


def init(rows, cols):
    scale = 1.0 / math.sqrt(cols)
    values = [[random.gauss(0.0, scale) for _ in range(cols)] for _ in range(rows)]
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


w1, w2 = init(4, 2), init(1, 4)
inputs = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
targets = torch.tensor([[0.0], [1.0], [1.0], [0.0]], dtype=torch.float64)
order = list(range(4))
for epoch in range(200):
    random.shuffle(order)
    hidden = torch.tanh(inputs[order] @ w1.T)
    out = hidden @ w2.T
    loss = ((out - targets[order]) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (w1, w2):
            p -= 0.5 * p.grad
            p.grad = None
    if epoch % 50 == 0:
        print(epoch, f"{loss.item():.6f}", order)
print(w1)
print(w2)
