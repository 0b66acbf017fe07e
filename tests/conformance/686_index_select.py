import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
idx = torch.tensor([2, 0, 2])
rows = x.index_select(0, idx)
print(rows)
print(rows.grad_fn.name())
rows.sum().backward()
print(x.grad)
print(torch.index_select(x, 1, torch.tensor([3, 1])))
