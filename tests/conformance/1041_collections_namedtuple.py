# collections.namedtuple: fields, defaults, _asdict, _replace, _make, unpacking, indexing,
# a subclass with methods, and tensors as fields.
from collections import namedtuple

import torch

Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p.y, p[0], p[-1], len(p), tuple(p))
x, y = p
print(x + y, p == (1, 2), p._asdict(), p._replace(x=10), Point._fields)
print(Point._make([5, 6]), Point.__name__, type(p).__name__, isinstance(p, tuple))
Config = namedtuple("Config", "lr momentum epochs", defaults=[0.9, 10])
c = Config(0.1)
print(c, Config._field_defaults, c._replace(epochs=3))
print(namedtuple("Renamed", ["ok", "def", "ok", "_x"], rename=True)._fields)
try:
    Point(1, 2, 3)
except TypeError as error:
    print("TypeError:", error)
try:
    Point(1)
except TypeError as error:
    print("TypeError:", error)
try:
    namedtuple("Bad", ["x", "_y"])
except ValueError as error:
    print("ValueError:", error)
try:
    p._replace(z=1)
except ValueError as error:
    print("ValueError:", error)


class Vector(namedtuple("Vector", "x y")):
    __slots__ = ()

    def norm(self):
        return (self.x**2 + self.y**2) ** 0.5

    def __add__(self, other):
        return Vector(self.x + other.x, self.y + other.y)


v = Vector(3, 4) + Vector(0, 0)
print(v, v.norm(), v._asdict())
Batch = namedtuple("Batch", "inputs targets")
w = torch.tensor([0.5, -0.5], requires_grad=True)
batches = [
    Batch(torch.tensor([[1.0, 2.0]]), torch.tensor([1.0])),
    Batch(torch.tensor([[0.0, 1.0]]), torch.tensor([0.0])),
]
for inputs, targets in batches:
    loss = ((inputs @ w - targets) ** 2).sum()
    loss.backward()
print(w.grad, batches[0].targets, sorted([Point(2, 1), Point(1, 5), Point(1, 2)]))
print({Point(1, 2): "a"}[(1, 2)], Point(1, 2) + (3,), max(Point(1, 9), Point(2, 0)))
