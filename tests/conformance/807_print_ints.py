import torch

print(torch.tensor([-1, 0, 1000000]))
print(torch.tensor([[1, -22], [333, 4]]))
print(torch.tensor(-5))
print(torch.tensor([0, 0]))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor([255], dtype=torch.uint8))
print(torch.tensor([10000000000]))
print(torch.tensor([[True, False], [False, True]]))
print(torch.tensor(True))
