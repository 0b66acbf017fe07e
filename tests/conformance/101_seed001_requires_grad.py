import torch

# tensors that track gradients
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
# some computation
y = w * x + b
# the grad_fn of y
print(y.grad_fn)
