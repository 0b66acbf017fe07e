import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
# torch.no_grad()
with torch.no_grad():
    y_nograd = w * x + 1
print(y_nograd.requires_grad)  # False
print(y_nograd.grad_fn)  # None
# detach()
y_detached = w * x + 1
y_detached = y_detached.detach()
print(y_detached.requires_grad)  # False
print(y_detached.grad_fn)  # None
# backward on y_detached raises
try:
    y_detached.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
