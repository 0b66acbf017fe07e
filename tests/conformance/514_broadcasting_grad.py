import torch

m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
row = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
col = torch.tensor([[2.0], [3.0]], requires_grad=True)
s = torch.tensor(0.5, requires_grad=True)

out = m * row + col * s
print(out)
out.sum().backward()
print(m.grad)
print(row.grad)
print(col.grad)
print(s.grad)
print(row.grad.shape, col.grad.shape, s.grad.shape)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
c = a / b
print(c)
c.backward(torch.ones(3, 2))
print(a.grad)
print(b.grad)
