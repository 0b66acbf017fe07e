# A lazy pipeline of generators (source -> transform -> window) with gradients at the end.
import torch


def source(n):
    for i in range(n):
        yield torch.tensor(float(i))


def scaled(values, w):
    for v in values:
        yield v * w


def windows(values, size):
    window = []
    for v in values:
        window.append(v)
        if len(window) == size:
            yield torch.stack(window)
            window = window[1:]


w = torch.tensor(0.5, requires_grad=True)
pipeline = windows(scaled(source(6), w), 3)
sums = [win.sum() for win in pipeline]
print(sums)
total = torch.stack(sums).sum()
total.backward()
print(total, w.grad)
print(list(windows(source(2), 3)))
print(next(windows(scaled(source(10), torch.tensor(2.0)), 4)))
evens = (t for t in source(10) if int(t) % 2 == 0)
print(torch.stack(list(scaled(evens, torch.tensor(-1.0)))))
