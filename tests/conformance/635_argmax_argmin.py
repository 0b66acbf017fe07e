import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
print(x.argmax())
print(x.argmin())
print(x.argmax(1))
print(torch.argmin(x, dim=0))
print(x.argmax(dim=1, keepdim=True))
print(torch.tensor([3.0, 3.0, 1.0]).argmax())
print(x.argmax().dtype, x.argmax().requires_grad)
