import torch

x = torch.ones(2, 3)
print(x.shape)
print(x.size())
print(x.size(0), x.size(1), x.size(-1))
print(x.shape[0], x.shape[-1])
print(x.dim(), x.ndim, x.numel())
print(x.dtype)
print(torch.tensor(1.0).shape, torch.tensor([1]).shape)
print(
    torch.tensor([1, 2]).dtype,
    torch.tensor([True]).dtype,
    torch.tensor([1.0], dtype=torch.float64).dtype,
)
print(x.shape == (2, 3), list(x.shape), tuple(x.shape))
print(len(x.shape))
print(torch.float32, torch.float, torch.float64, torch.double, torch.int64, torch.long, torch.bool)
print(torch.float32 == torch.float, x.dtype is torch.float32)
print(x.is_floating_point(), torch.tensor([1]).is_floating_point())
