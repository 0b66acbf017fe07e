# `:=` in comprehensions binds in the enclosing scope (function or module), as in Python.
import torch

data = [torch.tensor(v) for v in (0.5, -1.0, 2.0, -3.0, 4.0)]
positives = [y for x in data if (y := torch.relu(x)) > 0]
print(positives, y)


def running_totals(values):
    total = torch.tensor(0.0)
    sums = [total := total + v for v in values]
    return total, torch.stack(sums)


print(running_totals(data))
print([(last := v * 2) for v in data][-1], last)
print({(k := f"w{i}"): round(v.item(), 1) for i, v in enumerate(data)}, k)


def first_large(values, limit):
    if any((found := v).abs() > limit for v in values):
        return found
    return None


print(first_large(data, 1.5), first_large(data, 10))
w = torch.tensor([1.0, 2.0], requires_grad=True)
grads = [
    g for g in (torch.autograd.grad((w * s).sum(), w)[0] for s in (1.0, 2.0)) if (m := g.max()) > 1
]
print(grads, m)
