# Spatial pyramid pooling (SPP-net) over nn.AdaptiveMaxPool2d, a global max pool for a 1-d text
# CNN (nn.AdaptiveMaxPool1d), and ShuffleNet's channel shuffle (nn.ChannelShuffle and the
# view/transpose version of the ShuffleNet tutorials): values, indices, grad_fns, gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
m = nn.AdaptiveMaxPool2d((5, 7))
input = torch.randn(1, 64, 8, 9)
print(m, m(input).shape)
m = nn.AdaptiveMaxPool2d(7)
print(m(torch.randn(1, 64, 10, 9)).shape)
m = nn.AdaptiveMaxPool2d((None, 7))
print(m(torch.randn(1, 64, 10, 9)).shape)
m = nn.AdaptiveMaxPool1d(5)
print(m, m(torch.randn(1, 64, 8)).shape)

feature = torch.randn(2, 3, 7, 6, requires_grad=True)
levels = [nn.AdaptiveMaxPool2d(s) for s in (1, 2, 4)]
spp = torch.cat([pool(feature).flatten(1) for pool in levels], dim=1)
print(spp.shape, spp.grad_fn)
print(levels[1](feature)[0])
spp.sum().backward()
print(feature.grad[0, 0])
out, idx = F.adaptive_max_pool2d(feature, (3, 2), return_indices=True)
print(out.grad_fn, idx[1, 2])
out, idx = nn.AdaptiveMaxPool2d(2, return_indices=True)(feature.detach()[0])
print(out, idx)

emb = torch.randn(4, 5, 10, requires_grad=True)  # (batch, channels, words)
conv = nn.Conv1d(5, 6, 3)
h = F.relu(conv(emb))
pooled = F.adaptive_max_pool1d(h, 1).squeeze(2)
print(pooled.shape, pooled.grad_fn, pooled[0])
pooled.sum().backward()
print(emb.grad[0, 0])
print(F.adaptive_max_pool1d(torch.tensor([[1.0, 3.0, 3.0, 2.0, 5.0, 0.0, 4.0]]), 3, True))


def channel_shuffle(x, groups):
    batchsize, num_channels, height, width = x.size()
    channels_per_group = num_channels // groups
    x = x.view(batchsize, groups, channels_per_group, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    x = x.view(batchsize, -1, height, width)
    return x


shuffle = nn.ChannelShuffle(2)
print(shuffle)
input = torch.arange(1, 17, dtype=torch.float32).view(1, 4, 2, 2)
output = shuffle(input)
print(output)
print(torch.equal(output, channel_shuffle(input, 2)))
x = torch.randn(2, 6, 2, 2, requires_grad=True)
y = F.channel_shuffle(x, 3)
print(y.grad_fn, torch.equal(y, channel_shuffle(x, 3)))
(y * torch.arange(6.0).view(1, 6, 1, 1)).sum().backward()
print(x.grad[0, :, 0, 0])
print(torch.channel_shuffle(torch.arange(6.0).view(1, 6, 1), 2).flatten())
