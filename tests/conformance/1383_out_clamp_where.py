# out= on clamp/clip, where, maximum/minimum, atan2, fmod, remainder, addcmul/addcdiv.
import torch

x = torch.tensor([[-2.5, -0.5, 0.25], [1.0, 1.75, 3.0]])
y = torch.tensor([0.5, -1.0, 2.0])

print(torch.clamp(x, -1.0, 1.5, out=torch.empty(0)))
print(torch.clamp(x, min=0.0, out=torch.empty(0)))
print(torch.clamp(x, max=0.5, out=torch.empty(0)))
print(torch.clip(x, -0.75, 0.75, out=torch.empty(0)))
print(torch.clamp_min(x, 0.1, out=torch.empty(0)))
print(torch.clamp_max(x, 0.1, out=torch.empty(0)))
print(torch.clamp(x, y, out=torch.empty(0)))
print(torch.clamp(torch.tensor([-3, 0, 9]), 0, 5, out=torch.empty(0, dtype=torch.long)))

print(torch.where(x > 0, x, y, out=torch.empty(0)))
print(torch.where(x > 0, x, torch.zeros(1), out=torch.empty(0)))
print(torch.maximum(x, y, out=torch.empty(0)))
print(torch.minimum(x, y, out=torch.empty(0)))
print(torch.max(x, y, out=torch.empty(0)))
print(torch.min(x, y, out=torch.empty(0)))
print(torch.atan2(x, y, out=torch.empty(0)))
print(torch.arctan2(y, x, out=torch.empty(0)))
print(torch.fmod(x, 0.75, out=torch.empty(0)))
print(torch.fmod(x, y, out=torch.empty(0)))
print(torch.remainder(x, 0.7, out=torch.empty(0)))
print(torch.remainder(torch.tensor([7, -7, 5]), 3, out=torch.empty(0, dtype=torch.long)))
print(torch.addcmul(x, x, y, out=torch.empty(0)))
print(torch.addcmul(x, x, y, value=-0.5, out=torch.empty(0)))
print(torch.addcdiv(x, x, y, out=torch.empty(0)))
print(torch.addcdiv(x, y, x.abs() + 1, value=2, out=torch.empty(0)))

for name, fn, args in [
    ("clamp", torch.clamp, (x, 0, 1)),
    ("where", torch.where, (x > 0, x, y)),
    ("maximum", torch.maximum, (x, y)),
]:
    try:
        fn(*args, out=torch.empty(0, dtype=torch.float64))
    except RuntimeError as error:
        print(name, "RuntimeError:", error)
print(torch.maximum(x, y, out=torch.empty(0, dtype=torch.float64)))
