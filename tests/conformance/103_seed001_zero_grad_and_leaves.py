import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
loss = (y - 5) ** 2
# first backward
loss.backward(retain_graph=True)
print(w.grad)
# second backward without zeroing: the gradient accumulates
loss.backward(retain_graph=True)
print(w.grad)
# zero the gradient
w.grad.zero_()
print(w.grad)
# third backward after zeroing
loss.backward()
print(w.grad)
print(x.is_leaf)  # True
print(y.is_leaf)  # False
