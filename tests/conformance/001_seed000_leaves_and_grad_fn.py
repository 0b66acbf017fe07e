import torch as t
from torch.autograd import Variable as V

x = V(t.ones(1))
b = V(t.tensor([0.6035]), requires_grad=True)
w = V(t.tensor([0.5587]), requires_grad=True)
y = w * x  # same as y = w.mul(x)
z = y + b  # same as z = y.add(b)

# y depends on w, which requires grad, so y requires grad too; same for z
print((x.requires_grad, b.requires_grad, w.requires_grad, y.requires_grad, z.requires_grad))

print((x.is_leaf, b.is_leaf, w.is_leaf, y.is_leaf, z.is_leaf))

# z is the output of add, so its backward function is AddBackward
print(z.grad_fn)

# next_functions holds the inputs of grad_fn: y (MulBackward) and b (AccumulateGrad)
print(z.grad_fn.next_functions)

print(z.grad_fn.next_functions[0][0] == y.grad_fn)

# w is a leaf that requires grad (AccumulateGrad); x does not require grad (None)
print(y.grad_fn.next_functions)

# leaves have no grad_fn, even when they require grad
print((w.grad_fn, x.grad_fn))
