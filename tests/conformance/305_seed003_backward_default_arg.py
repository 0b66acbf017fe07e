import torch

# backward() on a scalar is the same as backward(torch.tensor(1.0))
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * x).sum()
loss.backward()
print(x.grad)
x.grad = None
loss = (x * x).sum()
loss.backward(torch.tensor(1.0))
print(x.grad)
