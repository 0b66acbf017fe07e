import torch as t
from torch.autograd import Variable as V

print(t.arange(-2, 4))


def f(x):
    result = 1
    for i in x:
        if i.data > 0:
            result = i * result
    return result


x = V(t.arange(-2, 4, dtype=t.float), requires_grad=True)
y = f(x)  # y = x[3]*x[4]*x[5]
y.backward()
print(x.grad)
