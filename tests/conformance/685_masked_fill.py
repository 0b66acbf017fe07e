import torch

x = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)
out = x.masked_fill(x < 0, 0.0)
print(out)
print(out.grad_fn.name())
(out * 3).sum().backward()
print(x.grad)
y = x.detach().clone()
y.masked_fill_(y > 2, float("inf"))
print(y)
print(torch.masked_fill(torch.zeros(3), torch.tensor([True, False, True]), 7.0))
