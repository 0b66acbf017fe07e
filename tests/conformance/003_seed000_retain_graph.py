import torch as t
from torch.autograd import Variable as V

x = V(t.ones(1))
b = V(t.tensor([0.6035]), requires_grad=True)
w = V(t.tensor([0.5587]), requires_grad=True)
y = w * x
z = y + b

# retain_graph keeps the buffers
z.backward(retain_graph=True)
print(w.grad)

# gradients accumulate across backward calls
z.backward()
print(w.grad)

# the buffers are freed now: a further backward raises
try:
    z.backward()
except Exception as e:
    print(type(e).__name__, e)
try:
    y.grad_fn.saved_variables  # noqa: B018
except Exception as e:
    print(type(e).__name__, e)
