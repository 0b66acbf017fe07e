# Methods given the wrong type of argument: the message names the argument and its position
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for label, call in [
    ("x.add('a')", lambda: x.add("a")),
    ("x.mul([1.])", lambda: x.mul([1.0])),
    ("x.matmul([1.])", lambda: x.matmul([1.0])),
    ("x.dot([1.])", lambda: x.dot([1.0])),
    ("x.expand_as([1.])", lambda: x.expand_as([1.0])),
    ("x.detach().copy_([1.])", lambda: x.detach().copy_([1.0])),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
y = x.add(2).mul(3)
print(y, y.grad_fn.name())
