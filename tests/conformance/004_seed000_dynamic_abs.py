import torch as t
from torch.autograd import Variable as V


def abs(x):
    if x.data[0] > 0:
        return x
    else:
        return -x


x = V(t.ones(1), requires_grad=True)
y = abs(x)  # y = x
y.backward()
print(x.grad)

x = V(-1 * t.ones(1), requires_grad=True)
y = abs(x)  # y = -x
y.backward()
print(x.grad)
