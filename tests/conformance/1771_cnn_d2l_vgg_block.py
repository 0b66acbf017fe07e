# d2l 7.2 VGG blocks on a small input: shapes through conv/relu/maxpool, a training step
import torch
from torch import nn


def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))
        layers.append(nn.ReLU())
        in_channels = out_channels
    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
    return nn.Sequential(*layers)


torch.manual_seed(0)
conv_arch = ((1, 4), (2, 8))
conv_blks = []
in_channels = 1
for num_convs, out_channels in conv_arch:
    conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
    in_channels = out_channels
net = nn.Sequential(
    *conv_blks,
    nn.Flatten(),
    nn.Linear(8 * 4 * 4, 16),
    nn.ReLU(),
    nn.Dropout(0.5),
    nn.Linear(16, 10),
)
print(net)
X = torch.randn(4, 1, 16, 16)
for blk in net:
    X = blk(X)
    print(type(blk).__name__, "output shape:\t", X.shape)
net.eval()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
y = torch.tensor([0, 1, 2, 3])
data = torch.randn(4, 1, 16, 16)
for i in range(3):
    l = nn.functional.cross_entropy(net(data), y)  # noqa: E741 - d2l's name
    opt.zero_grad()
    l.backward()
    opt.step()
    print(i, round(l.item(), 4))
print(net[1][2].weight.grad.abs().sum())
