import torch as t
from torch.autograd import Variable as V


# third way: a hook receives the gradient and returns nothing
def variable_hook(grad):
    print(f"y 的梯度：{grad}")


x = V(t.ones(3), requires_grad=True)
w = V(t.tensor([0.6035, 0.5587, 0.7389]), requires_grad=True)

y = x * w
z = y.sum()

# register the hook
hook_handle = y.register_hook(variable_hook)
z = y.sum()
z.backward()

# remove the hook once it is no longer needed
hook_handle.remove()
