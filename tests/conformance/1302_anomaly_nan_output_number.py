# Which output of the node holds the NaN, check_nan=False, and a NaN fed in as the root gradient
import warnings

import torch

warnings.simplefilter("ignore")

a = torch.tensor([0.0, 1.0], requires_grad=True)
b = torch.tensor([0.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    try:
        (a / b).sum().backward()  # d/da = 1/b = inf (no NaN), d/db = -a/b^2 = nan
    except RuntimeError as e:
        print("RuntimeError:", e)
print(a.grad, b.grad)

with torch.autograd.detect_anomaly():
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = torch.tensor([3.0, 4.0], requires_grad=True)
    try:
        torch.autograd.grad(p * q, [p, q], grad_outputs=torch.tensor([float("nan"), 1.0]))
    except RuntimeError as e:
        print("RuntimeError:", e)

# check_nan=False: traces still recorded, NaN not checked
with torch.autograd.detect_anomaly(check_nan=False):
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = (torch.sqrt(x) * 0).sum()
    y.backward()
print("check_nan=False:", x.grad)

# set_detect_anomaly(True, check_nan=False) the same; then on with NaN checks
torch.autograd.set_detect_anomaly(True, check_nan=False)
x = torch.tensor([-1.0, 1.0], requires_grad=True)
torch.log(x).sum().backward()
print(x.grad)
torch.autograd.set_detect_anomaly(True)
x = torch.tensor([-1.0, 1.0], requires_grad=True)
y = torch.log(x) * torch.tensor([0.0, 1.0])
try:
    torch.log(y + 1).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())

# in several ops: the first node (in backward order) giving NaN is named
with torch.autograd.detect_anomaly():
    u = torch.tensor([4.0, -4.0], requires_grad=True)
    v = torch.sqrt(u)
    s = torch.sigmoid(v)
    try:
        (s * 2).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    n = torch.tensor([[float("nan"), 0.0], [0.0, 1.0]])
    try:
        (m @ n).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
