# A script's own object where a tensor is expected is refused by its class name
import torch


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


p = Point(1.0, 2.0)
try:
    torch.tanh(p)
except TypeError as e:
    print(e)
try:
    torch.ones(2).sub(p)
except TypeError as e:
    print(e)
print(torch.tanh(torch.tensor([p.x, p.y])))
