import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 3).sum().backward()
print(x.grad)
r = x.grad.zero_()
print(x.grad)
print(r)
(x * x).sum().backward()
print(x.grad)
x.grad.zero_()
(x * 5).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
(x * 5).sum().backward()
print(x.grad)
print(torch.ones(2, 2).zero_())
