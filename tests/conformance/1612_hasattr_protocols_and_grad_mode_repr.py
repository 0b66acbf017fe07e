# ruff: noqa: B004  (the script checks what hasattr(x, "__call__") answers)
import numpy as np
import torch
import torch.nn as nn


# d2l's plotting helper branches on hasattr(X, "__len__")
def has_one_axis(X):
    return (
        hasattr(X, "ndim") and X.ndim == 1 or isinstance(X, list) and not hasattr(X[0], "__len__")
    )


print(has_one_axis([1, 2, 3]), has_one_axis([[1, 2], [3, 4]]), has_one_axis(torch.ones(3)))
print(
    hasattr([1], "__len__"),
    hasattr((1,), "__len__"),
    hasattr(3, "__len__"),
    hasattr("ab", "__iter__"),
)
print(
    hasattr(torch.ones(2), "__len__"),
    hasattr(torch.ones(2), "__iter__"),
    hasattr(torch.ones(2), "__call__"),
)
print(hasattr(np.array([1, 2]), "__len__"), hasattr(np.arange(3), "__getitem__"))


class Sized:
    def __len__(self):
        return 3


class Child(Sized):
    pass


class Plain:
    pass


def gen():
    yield 1


print(hasattr(Sized(), "__len__"), hasattr(Child(), "__len__"), hasattr(Plain(), "__len__"))
print(hasattr(Plain, "__call__"), hasattr(Sized, "__len__"), hasattr(len, "__call__"))
print(hasattr(gen(), "__next__"), hasattr(iter([1]), "__next__"), hasattr([], "__next__"))
print(hasattr(torch.no_grad(), "__enter__"), hasattr(nn.Linear(2, 2), "__call__"))
print(hasattr(3.0, "__float__"), hasattr(3, "__index__"), hasattr({}, "__contains__"))
print(hasattr(range(3), "__reversed__"), hasattr(torch, "__call__"))
data = [torch.ones(2), [1, 2], 5, "text", (3,)]
print([len(x) if hasattr(x, "__len__") else None for x in data])

print(torch.set_grad_enabled(True))
print(torch.set_grad_enabled(False))
mode = torch.set_grad_enabled(True)
print(mode, [mode], mode.mode, mode.prev)
print(f"{torch.set_grad_enabled(False)}")
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    torch.set_grad_enabled(1)
except TypeError as error:
    print("TypeError:", error)
print(type(torch.no_grad()).__name__, type(torch.enable_grad()).__name__)
print(type(torch.inference_mode()).__name__, type(torch.set_grad_enabled(True)).__name__)
print(repr(torch.no_grad()).split(" object at ")[0])
print(repr(torch.enable_grad()).split(" object at ")[0])
print(repr(torch.inference_mode()).split(" object at ")[0])
print(str(torch.inference_mode(False)).split(" object at ")[0])
