# torch.linalg.multi_dot: chains of matrices (and end vectors), with gradients
import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
m = [torch.ones(2, 3), torch.ones(3, 4) * 2, torch.ones(4, 1)]
y = torch.linalg.multi_dot(m)
print(y, y.grad_fn)
print(torch.linalg.multi_dot([torch.ones(3), torch.ones(3, 2), torch.ones(2)]))
z = torch.linalg.multi_dot([a, a, a])
print(z, z.grad_fn)
z.sum().backward()
print(a.grad)
print(torch.linalg.multi_dot([torch.tensor([1.0, 2.0]), a]))
