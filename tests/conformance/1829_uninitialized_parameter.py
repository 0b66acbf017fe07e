# What an uninitialised lazy parameter shows before the first call
import torch
from torch import nn

lin = nn.LazyLinear(3)
print(lin)
print(lin.weight, lin.bias)
print(lin.in_features, lin.weight.requires_grad, lin.weight.dtype)
print(lin.has_uninitialized_params())
print(list(lin.parameters()))
print(lin.state_dict())
try:
    print(lin.weight.shape)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    lin.weight.numel()
except ValueError as e:
    print("ValueError:", e)
opt = torch.optim.Adam(lin.parameters(), lr=0.1)
torch.manual_seed(3)
out = lin(torch.ones(2, 4))
print(lin)
print(type(lin.weight).__name__, opt.param_groups[0]["params"][0] is lin.weight)
out.sum().backward()
opt.step()
print(lin.weight)
print(nn.LazyLinear(2, bias=False).bias)
