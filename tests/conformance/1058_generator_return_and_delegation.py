# `return v` in a generator, StopIteration.value and what `yield from` hands back.
import torch


def train_steps(w, lr, n):
    history = []
    for i in range(n):
        loss = ((w - 3.0) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        w.grad.zero_()
        history.append(round(loss.item(), 5))
        yield i, round(loss.item(), 5)
    return history


def schedule(w):
    first = yield from train_steps(w, 0.1, 3)
    print("first phase", first)
    second = yield from train_steps(w, 0.4, 2)
    print("second phase", second)
    return len(first) + len(second)


w = torch.tensor([0.0, 1.0], requires_grad=True)
runner = schedule(w)
while True:
    try:
        print(next(runner))
    except StopIteration as stop:
        print("steps:", stop.value)
        break
print(w)
empty = train_steps(torch.zeros(1, requires_grad=True), 0.1, 0)
try:
    next(empty)
except StopIteration as stop:
    print("nothing to do:", stop.value)
