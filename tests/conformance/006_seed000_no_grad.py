import torch as t
from torch.autograd import Variable as V

x = V(t.ones(1), requires_grad=True)
y = 2 * x
print((x.requires_grad, y.requires_grad))

x = V(t.ones(1), requires_grad=True)
with t.no_grad():
    y = 2 * x
print((x.requires_grad, y.requires_grad))
