import torch

s = torch.ones(2, 3, 4).shape
print(s)
print(repr(s), str(s))
print(type(s).__name__)
print(s[0], s[-1], s[1:])
print(len(s), list(s), tuple(s))
print(s == (2, 3, 4), s == torch.Size([2, 3, 4]))
print(s.numel())
print(torch.Size([2, 3]) + (4,))
print(torch.Size([]))
print(torch.Size([5]))
print(torch.tensor(1.0).shape, torch.ones(0, 3).shape)
a, b, c = s
print(a, b, c)
print(f"{s}")
