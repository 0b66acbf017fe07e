import torch as t
from torch.autograd import Variable as V

# second way: autograd.grad gives the gradient of an intermediate variable
x = V(t.ones(3), requires_grad=True)
w = V(t.tensor([0.6035, 0.5587, 0.7389]), requires_grad=True)

y = x * w
z = y.sum()

# gradient of z with respect to y
print(t.autograd.grad(z, y))
