import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
loss = (y - 5) ** 2  # the target is 5
# backward pass
loss.backward()
# the gradients
print(x.grad)  # dloss/dx
print(w.grad)  # dloss/dw
print(b.grad)  # dloss/db
