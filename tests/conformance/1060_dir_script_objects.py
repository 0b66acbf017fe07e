# dir() on script objects and classes: their public names, sorted, as Python lists them.
import torch
from torch import nn


class Scaler(nn.Module):
    """Multiply by a learnable scale."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(2.0))
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * self.scale

    def reset_calls(self):
        self.calls = 0


class Point:
    dims = 2

    def __init__(self, x, y):
        self.x, self.y = x, y

    def norm(self):
        return (self.x**2 + self.y**2) ** 0.5


def public(names):
    return [n for n in names if not n.startswith("_")]


print(public(dir(Point(3, 4))))
print(public(dir(Point)))
p = Point(1, 2)
p.label = "a"
print(public(dir(p)))
print("scale" in dir(Scaler()), "reset_calls" in dir(Scaler), "forward" in dir(Scaler()))
print(Scaler.__doc__, Point(3, 4).norm())


def generator():
    yield 1


print([n for n in public(dir(generator())) if not n.startswith("gi_")])
x = 1
names = dir()
print("Point" in names, "x" in names, "public" in names)
