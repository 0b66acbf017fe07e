# Generator expressions and generator functions as arguments of torch and builtins.
import torch

w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
total = sum(w[i] * (i + 1) for i in range(3))
print(total)
total.backward()
print(w.grad)


def powers(t, n):
    p = torch.ones_like(t)
    for _ in range(n):
        yield p
        p = p * t


stacked = torch.stack(list(powers(torch.tensor([2.0, 3.0]), 4)))
print(stacked)
print(torch.cat(tuple(powers(torch.tensor([1.5]), 3))))
print(max(p.sum().item() for p in powers(torch.tensor([2.0, -1.0]), 4)))
print(
    any(p.sum() > 10 for p in powers(torch.tensor([2.0]), 5)),
    all(p.sum() > 0 for p in powers(torch.tensor([-1.0]), 3)),
)
print(dict(enumerate(p.item() for p in powers(torch.tensor(3.0), 3))))
x = torch.tensor(0.7, requires_grad=True)
series = sum(term for term in powers(x, 6))
series.backward()
print(round(series.item(), 6), round(x.grad.item(), 6))
