# d2l (en/zh) 6.6 LeNet: the network, each layer's output shape, the first weights under the seed
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120),
    nn.Sigmoid(),
    nn.Linear(120, 84),
    nn.Sigmoid(),
    nn.Linear(84, 10),
)
print(net)
X = torch.rand((1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(type(layer).__name__, "output shape: \t", X.shape)
print(X)
print(net[0].weight[0, 0])
print(net[3].bias)
