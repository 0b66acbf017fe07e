# torch.masked reductions with a padding mask (sequence batches of different lengths): the
# masked mean over time and its gradient.
import torch

torch.manual_seed(0)
lengths = torch.tensor([3, 1, 4])
x = torch.randn(3, 4, requires_grad=True)
mask = torch.arange(4)[None, :] < lengths[:, None]
print(mask)
total = torch.masked.sum(x, 1, mask=mask)
mean = torch.masked.mean(x, 1, mask=mask)
print(total)
print(mean)
print(torch.masked.sum(x, mask=mask), torch.masked.mean(x, mask=mask))
print(torch.masked.mean(x, 1, keepdim=True, mask=mask).shape)
mean.sum().backward()
print(x.grad)
