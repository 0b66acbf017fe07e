import torch

x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
out = torch.where(x > 0, x, y)
print(out)
print(out.grad_fn.name())
(out * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
print(y.grad)
print(torch.where(x > 0, x, 0.0))
print(torch.where(x > 0, 1.0, -1.0))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([3, 4])))
print(x.where(x < 0, torch.zeros(4)))
