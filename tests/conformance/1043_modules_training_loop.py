# A training loop as tutorials write it with the standard library: a namedtuple config, a
# defaultdict history, a deque window, itertools for the grid, functools.partial for the loss.
import functools
import itertools
import random
from collections import defaultdict, deque, namedtuple

import torch

Config = namedtuple("Config", "lr steps")
random.seed(3)
data = [(random.uniform(-1, 1), random.uniform(-1, 1)) for _ in range(16)]
X = torch.tensor(data)
target = (X[:, 0] * 0.7 - X[:, 1] * 0.2).unsqueeze(1)


def loss_fn(pred, y, reduction):
    return torch.nn.functional.mse_loss(pred, y, reduction=reduction)


mse = functools.partial(loss_fn, reduction="mean")
results = defaultdict(list)
for lr, steps in itertools.product([0.05, 0.5], [5, 20]):
    config = Config(lr, steps)
    w = torch.zeros(2, 1, requires_grad=True)
    window = deque(maxlen=4)
    for _ in range(config.steps):
        loss = mse(X @ w, target)
        loss.backward()
        with torch.no_grad():
            w -= config.lr * w.grad
        w.grad = None
        window.append(loss.item())
    results[config.lr].append(round(sum(window) / len(window), 5))
    print(config, round(loss.item(), 5))
print(dict(results))
best = min(itertools.chain.from_iterable(results.values()))
print(best, functools.reduce(lambda a, b: a + b, results[0.5]) > 0)
