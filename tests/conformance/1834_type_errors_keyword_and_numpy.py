# Keyword arguments give no position; numpy values are named as numpy names them
import numpy as np
import torch

x = torch.ones(2)
for label, call in [
    ("torch.exp(np.array([1.]))", lambda: torch.exp(np.array([1.0]))),
    ("torch.exp(np.float32(1))", lambda: torch.exp(np.float32(1))),
    ("torch.sum(input=(1, 2))", lambda: torch.sum(input=(1, 2))),
    ("torch.add(x, other='b')", lambda: torch.add(x, other="b")),
    ("torch.exp(x, out=[1.])", lambda: torch.exp(x, out=[1.0])),
    ("torch.exp({})", lambda: torch.exp({})),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
print(torch.add(x, 2.0), torch.mul(x, 3))
