# Ops with several signatures list them when no signature fits
import torch

x = torch.ones(3)
for label, call in [
    ("torch.eq(x, [1.])", lambda: torch.eq(x, [1.0])),
    ("x.eq([1, 2.0])", lambda: x.eq([1, 2.0])),
    ("torch.pow(x, 'a')", lambda: torch.pow(x, "a")),
    ("x.pow((2,))", lambda: x.pow((2,))),
    ("torch.clamp(x, [0.])", lambda: torch.clamp(x, [0.0])),
    ("torch.fmod(x, None)", lambda: torch.fmod(x, None)),
    ("torch.max([1.])", lambda: torch.max([1.0])),
    ("torch.lerp(x, [1.], 0.5)", lambda: torch.lerp(x, [1.0], 0.5)),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
