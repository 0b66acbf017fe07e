# Gradient accumulation over a DataLoader read with `while (batch := next(it, None))` and a
# nonlocal step counter.
import torch
from torch.utils.data import DataLoader, TensorDataset

x = torch.arange(10.0).reshape(-1, 1)
y = 2 * x + 1
loader = DataLoader(TensorDataset(x, y), batch_size=3)
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def make_stepper(lr, every):
    calls = 0

    def maybe_step():
        nonlocal calls
        calls += 1
        if calls % every == 0:
            with torch.no_grad():
                for p in (w, b):
                    p -= lr * p.grad
                    p.grad.zero_()
            return True
        return False

    return maybe_step


step = make_stepper(0.01, 2)
for epoch in range(3):
    it = iter(loader)
    stepped = 0
    while (batch := next(it, None)) is not None:
        xb, yb = batch
        ((xb @ w + b - yb) ** 2).mean().backward()
        stepped += step()
    print(epoch, stepped, w.item(), b.item())
