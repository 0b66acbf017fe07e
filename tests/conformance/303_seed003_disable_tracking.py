import torch

x = torch.ones(5)
w = torch.tensor([[0.1, -0.2, 0.3]] * 5, requires_grad=True)
b = torch.tensor([0.5, -0.5, 0.0], requires_grad=True)

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)

z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
