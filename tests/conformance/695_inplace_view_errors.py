import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def set_first():
    x[0] = 1.0


def set_mask():
    x[x > 1] = 0.0


for label, fn in [
    ("x[0] = 1", set_first),
    ("x[x > 1] = 0", set_mask),
    ("x.t().mul_(2)", lambda: x.t().mul_(2)),
    ("x.unsqueeze(0)[0].add_(1)", lambda: x.unsqueeze(0)[0].add_(1)),
]:
    try:
        fn()
    except RuntimeError as e:
        print(label, "->", e)
with torch.no_grad():
    x[0] = 10.0
    x[1:].mul_(2)
    v = x[:2]
print(x, x._version, x.is_leaf)
try:
    v.add_(1)
except RuntimeError as e:
    print(e)
e = torch.ones(3).expand(2, 3)
try:
    e.add_(1)
except RuntimeError as err:
    print(err)
y = x * 1
try:
    y[0] = torch.ones(2)
except RuntimeError as err:
    print(err)
try:
    y[[0, 1]] = torch.ones(3)
except RuntimeError as err:
    print(err)
