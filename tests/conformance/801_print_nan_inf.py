import torch

nan = float("nan")
inf = float("inf")
print(torch.tensor([nan, 1.0, 2.0]))
print(torch.tensor([inf, -inf, 1.5]))
print(torch.tensor([nan, inf]))
print(torch.tensor(nan))
print(torch.tensor([inf, 1.0, 2.0]))
print(torch.tensor([nan, 1e-5, 100.0]))
print(torch.tensor([inf, 1e10]))
print(torch.tensor([nan, nan]))
print(torch.tensor([[nan, 1.0], [2.0, -inf]]))
print(torch.tensor([0.0, 1.0]) / torch.tensor([0.0, 0.0]))
