import torch

# the seed's example 3 exactly as written: the second backward runs without retain_graph
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
loss = (y - 5) ** 2
loss.backward()
print(w.grad)
try:
    loss.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
print(w.grad)
w.grad.zero_()
print(w.grad)
try:
    loss.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
print(w.grad)
print(x.is_leaf)
print(y.is_leaf)
