# A learning-rate schedule written as an infinite generator, zipped with the epochs.
import torch


def exponential(lr, gamma):
    while True:
        yield lr
        lr *= gamma


def warmup_then(schedule, steps, start):
    for i in range(steps):
        yield start + (next(schedule) - start) * (i + 1) / steps
    yield from schedule


w = torch.tensor([4.0, -2.0], requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.0)
schedule = warmup_then(exponential(0.2, 0.5), 2, 0.0)
for epoch, lr in zip(range(6), schedule):
    for group in optimizer.param_groups:
        group["lr"] = lr
    loss = (w**2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, round(lr, 5), w.detach())
print(next(schedule), next(schedule))
