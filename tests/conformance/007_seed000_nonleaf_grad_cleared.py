import torch as t
from torch.autograd import Variable as V

x = V(t.ones(3), requires_grad=True)
w = V(t.tensor([0.6035, 0.5587, 0.7389]), requires_grad=True)

y = x * w
z = y.sum()

z.backward()
y.retain_grad()
# the grad of a non-leaf is freed after backward: y.grad is None
print((x.grad, w.grad, y.grad))
