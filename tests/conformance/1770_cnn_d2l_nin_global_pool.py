# d2l 7.3 NiN: 1x1 convolutions and global average pooling (AdaptiveAvgPool2d((1, 1))) on a small input
import torch
from torch import nn


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1),
        nn.ReLU(),
    )


torch.manual_seed(0)
net = nn.Sequential(
    nin_block(1, 8, kernel_size=5, strides=2, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(8, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
)
print(net)
X = torch.rand((2, 1, 32, 32))
for layer in net:
    X = layer(X)
    print(type(layer).__name__, "output shape:\t", X.shape)
print(X)
print(X.grad_fn)
X.sum().backward()
print(net[0][0].bias.grad)
