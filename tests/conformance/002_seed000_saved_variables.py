import torch as t
from torch.autograd import Variable as V

x = V(t.ones(1))
b = V(t.tensor([0.6035]), requires_grad=True)
w = V(t.tensor([0.5587]), requires_grad=True)
y = w * x
z = y + b

# saved_variables is not reachable from Python any more
try:
    y.grad_fn.saved_variables  # noqa: B018
except Exception as e:
    print(f"error: {e}")
