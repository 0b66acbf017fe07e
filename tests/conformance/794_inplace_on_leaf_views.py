# In-place ops on a leaf that requires grad: PyTorch words the error for a view differently.
import torch

a = torch.linspace(0, 1, 6).reshape(2, 3).requires_grad_()
print(a.is_leaf)


def set_row():
    a[0] = 1.0


for name, f in [
    ("mul_", lambda: a.mul_(2)),
    ("clamp_", lambda: a.clamp_(0, 1)),
    ("add_", lambda: a.add_(1)),
    ("zero_", lambda: a.zero_()),
    ("setitem", set_row),
]:
    try:
        f()
    except RuntimeError as e:
        print(name, type(e).__name__, e)

b = torch.ones(3, requires_grad=True)
for name, f in [("mul_", lambda: b.mul_(2)), ("exp_", lambda: b.exp_())]:
    try:
        f()
    except RuntimeError as e:
        print(name, type(e).__name__, e)

with torch.no_grad():
    a.mul_(2)
print(a)
