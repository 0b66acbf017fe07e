import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
x.backward(torch.tensor([3.0, 4.0]))
print(x.grad)
s = torch.tensor(5.0, requires_grad=True)
s.backward()
print(s.grad)
s.backward()
print(s.grad)
