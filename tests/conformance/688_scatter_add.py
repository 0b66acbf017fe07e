import torch

src = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
index = torch.tensor([[0, 1, 0], [1, 1, 2]])
base = torch.zeros(2, 3, requires_grad=True)
out = base.scatter_add(1, index, src)
print(out)
print(out.grad_fn.name())
(out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(src.grad)
print(base.grad)
print(torch.zeros(5).scatter_add(0, torch.tensor([0, 0, 4]), torch.tensor([1.0, 2.0, 3.0])))
print(torch.zeros(2, 2).scatter(1, torch.tensor([[1], [0]]), 5.0))
