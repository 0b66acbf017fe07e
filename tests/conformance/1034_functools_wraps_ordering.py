# functools.wraps for decorators, total_ordering and cmp_to_key for sorting.
import functools

import torch


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        result = function(*args, **kwargs)
        print("called", function.__name__)
        return result

    return wrapper


@logged
def loss_fn(pred, target):
    """Mean squared error."""
    return ((pred - target) ** 2).mean()


p = torch.tensor([1.0, 2.0], requires_grad=True)
loss = loss_fn(p, torch.tensor([0.0, 0.0]))
loss.backward()
print(loss_fn.__name__, loss_fn.__doc__, loss, p.grad)


@functools.total_ordering
class Checkpoint:
    def __init__(self, epoch, loss):
        self.epoch = epoch
        self.loss = loss

    def __eq__(self, other):
        return self.loss == other.loss

    def __lt__(self, other):
        return self.loss < other.loss

    def __repr__(self):
        return f"Checkpoint({self.epoch}, {self.loss})"


points = [Checkpoint(1, 0.5), Checkpoint(2, 0.25), Checkpoint(3, 0.75)]
print(sorted(points), max(points), min(points))
a, b = points[0], points[1]
c = Checkpoint(4, 0.5)
print(a > b, a >= b, a <= b, c <= a, a >= c)


def by_norm(u, v):
    nu, nv = u.norm().item(), v.norm().item()
    return -1 if nu < nv else (1 if nu > nv else 0)


vectors = [torch.tensor([3.0, 4.0]), torch.tensor([1.0, 0.0]), torch.tensor([0.0, 2.0])]
for v in sorted(vectors, key=functools.cmp_to_key(by_norm)):
    print(v)
print(sorted(["bb", "a", "ccc"], key=functools.cmp_to_key(lambda s, t: len(t) - len(s))))
