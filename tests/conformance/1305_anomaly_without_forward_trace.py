# Nodes made while anomaly mode was off have no trace: the warning says so
import warnings

import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = torch.sqrt(x) * 0
print(y.grad_fn.metadata, y.grad_fn.next_functions[0][0].metadata)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        try:
            y.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
for w in caught:
    print(w.category.__name__, "-", w.message)

# half the graph made with the mode on
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    a = torch.tensor([0.0, 2.0], requires_grad=True)
    b = torch.sqrt(a)
    with torch.autograd.detect_anomaly():
        c = b * torch.tensor([0.0, 1.0])
        print(sorted(c.grad_fn.metadata), b.grad_fn.metadata)
        try:
            c.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
for w in caught[1:]:
    print(w.message)

# the mode only at backward time, without NaN checks: no error at all
a.grad = None
d = (torch.sqrt(a) * 0).sum()
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    d.backward()
print(a.grad, torch.is_anomaly_enabled())
