# Mini-batches from a generator function feeding a hand-written gradient-descent loop.
import torch


def batches(x, y, size):
    """Yield consecutive (inputs, targets) slices of `size` rows."""
    for start in range(0, x.shape[0], size):
        yield x[start : start + size], y[start : start + size]


x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(-1, 1)
y = 3 * x - 0.5
w = torch.zeros(1, 1, dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64, requires_grad=True)

print(type(batches(x, y, 4)).__name__, len(list(batches(x, y, 5))))
for epoch in range(30):
    total = 0.0
    for xb, yb in batches(x, y, 4):
        loss = ((xb @ w + b - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.3 * w.grad
            b -= 0.3 * b.grad
        w.grad.zero_()
        b.grad.zero_()
        total += loss.item()
    if epoch % 10 == 9:
        print(epoch, round(total, 6))
print(w.detach(), b.detach())
shapes = [tuple(xb.shape) for xb, _ in batches(x, y, 5)]
print(shapes)
