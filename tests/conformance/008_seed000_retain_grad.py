import torch as t
from torch.autograd import Variable as V

# first way: retain_grad
x = V(t.ones(3), requires_grad=True)
w = V(t.tensor([0.6035, 0.5587, 0.7389]), requires_grad=True)

y = x * w
z = y.sum()

y.retain_grad()
z.backward()
print(y.grad)
