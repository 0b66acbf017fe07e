# functools.reduce and partial over tensors and script functions.
import functools

import torch

x = torch.tensor([1.5, -2.0, 0.5], requires_grad=True)
terms = [x, x * 2, x.sin(), x.exp()]
total = functools.reduce(lambda a, b: a * b, terms)
total.sum().backward()
print(total)
print(x.grad)
print(functools.reduce(lambda a, b: a + b, [1, 2, 3, 4], 10))
print(functools.reduce(max, [3, 9, 2]))
try:
    functools.reduce(lambda a, b: a + b, [])
except TypeError as error:
    print("TypeError:", error)


def scaled_power(t, power, scale=1.0):
    return scale * t**power


square = functools.partial(scaled_power, power=2)
half_cube = functools.partial(scaled_power, power=3, scale=0.5)
print(square.args, square.keywords, square.func is scaled_power)
print(repr(square).startswith("functools.partial(<function scaled_power at "))
y = torch.tensor([1.0, 2.0], requires_grad=True)
(square(y) + half_cube(y)).sum().backward()
print(y.grad)
add3 = functools.partial(functools.partial(scaled_power, power=1), scale=3.0)
print(add3.func is scaled_power, add3.keywords, add3(y))
print(list(map(functools.partial(pow, 2), [1, 2, 3])))
