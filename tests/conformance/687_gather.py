import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
idx = torch.tensor([[2, 0], [1, 1]])
g = x.gather(1, idx)
print(g)
print(g.grad_fn.name())
g.sum().backward()
print(x.grad)
print(torch.gather(x, 0, torch.tensor([[1, 0, 1]])))
