# The computation graph: leaves, grad_fn and next_functions, then backward through it.
import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0)  # a constant: it does not require grad

y = w * x
z = y + b

print("is_leaf:", x.is_leaf, w.is_leaf, b.is_leaf, y.is_leaf, z.is_leaf)
print("requires_grad:", x.requires_grad, b.requires_grad, z.requires_grad)
print("z.grad_fn:", z.grad_fn.name())

# next_functions: one entry per input; None for an input that does not require grad
for fn, index in z.grad_fn.next_functions:
    print("  input of AddBackward0:", None if fn is None else fn.name(), index)
for fn, index in y.grad_fn.next_functions:
    print("  input of MulBackward0:", fn.name(), index)

z.backward()
print("dz/dx =", x.grad)  # w
print("dz/dw =", w.grad)  # x
