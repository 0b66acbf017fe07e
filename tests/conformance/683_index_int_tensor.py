import torch

x = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
idx = torch.tensor([0, 2, 2, 3])
y = x[idx]
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
m = torch.arange(12.0).reshape(3, 4).requires_grad_()
print(m[torch.tensor([2, 0])])
print(m[[0, 1], [1, 3]])
print(m[torch.tensor([[0, 1], [2, 2]])].shape)
print(m[1, [0, 0, 2]])
out = m[[0, 2, 0], [1, 3, 1]]
print(out)
out.sum().backward()
print(m.grad)
print(x[[1, -1]])
