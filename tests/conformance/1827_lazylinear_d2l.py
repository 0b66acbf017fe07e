# d2l "Lazy Initialization" (5.3): shapes inferred at the first call
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
print(net[0].weight)
print(net)
X = torch.rand(2, 20)
print(net(X).shape)
print(net[0].weight.shape, net[2].weight.shape)
print(net)
print(net[0].bias[:4])
print(type(net[0]).__name__, net[0].in_features)
