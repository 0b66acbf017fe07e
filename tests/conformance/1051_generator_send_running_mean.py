# A coroutine (x = yield) keeping running statistics of losses sent to it.
import torch


def running_mean():
    total = torch.tensor(0.0)
    count = 0
    mean = None
    while True:
        value = yield mean
        if value is None:
            return total, count
        total = total + value
        count += 1
        mean = total / count


tracker = running_mean()
print(next(tracker))
torch.manual_seed(0)
weights = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
for step in range(5):
    inputs = torch.arange(3.0) + step
    loss = (weights * inputs).sum() ** 2
    print(step, tracker.send(loss.detach()))
try:
    tracker.send(None)
except StopIteration as stop:
    total, count = stop.value
    print("total", total, "count", count)

accumulated = running_mean()
next(accumulated)
for scale in (1.0, 2.0, 3.0):
    mean = accumulated.send((weights * scale).sum())
print(mean, mean.grad_fn is not None)
mean.backward()
print(weights.grad)
