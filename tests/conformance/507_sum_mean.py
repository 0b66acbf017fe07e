import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
s = x.sum()
m = x.mean()
print(s)
print(m)
print(torch.sum(x), torch.mean(x))
(s + m).backward()
print(x.grad)
print(s.grad_fn.name(), m.grad_fn.name())
