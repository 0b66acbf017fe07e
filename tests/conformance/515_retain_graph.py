import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.grad)

# ops that save nothing can be backpropagated twice
z = (x + 1).sum()
z.backward()
z.backward()
print(x.grad)

# exp saves its result
w = x.exp().sum()
w.backward()
try:
    w.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
