# The mistakes tutorials run into with these layers (a channel count that does not divide, the
# wrong number of channels for the affine parameters, too few values to normalise, a pad wider
# than the input, a bad upscale factor): PyTorch's exceptions and messages
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(2, 6, 3, 3)
for bad in [
    lambda: nn.GroupNorm(4, 6),
    lambda: nn.GroupNorm(2, 4)(x),
    lambda: F.group_norm(x, 4),
    lambda: F.group_norm(torch.randn(6), 2),
    lambda: F.group_norm(torch.randn(1, 6, 1), 6),
    lambda: nn.InstanceNorm2d(4, affine=True)(x),
    lambda: nn.InstanceNorm2d(6)(torch.randn(3, 3)),
    lambda: nn.InstanceNorm1d(6)(x),
    lambda: nn.InstanceNorm1d(6)(torch.randn(2, 6, 1)),
    lambda: F.instance_norm(x, weight=torch.ones(4)),
    lambda: F.instance_norm(x, torch.zeros(6)),
    lambda: F.pixel_shuffle(x, 4),
    lambda: F.pixel_shuffle(torch.randn(4, 4), 2),
    lambda: F.pixel_unshuffle(x, 2),
    lambda: F.pixel_shuffle(x, 0),
    lambda: nn.ChannelShuffle(4)(x),
    lambda: nn.ChannelShuffle(3)(torch.randn(2, 6)),
    lambda: nn.ChannelShuffle(0)(x),
    lambda: F.adaptive_max_pool2d(torch.randn(3, 3), 2),
    lambda: F.adaptive_max_pool2d(x, (2, 3, 4)),
    lambda: F.adaptive_max_pool1d(x, 2),
    lambda: nn.ReflectionPad2d(3)(x),
    lambda: nn.ReflectionPad2d(1)(torch.randn(3, 3)),
    lambda: nn.ZeroPad2d(1)(torch.randn(3)),
    lambda: F.pixel_shuffle(torch.ones(1, 4, 2, 2), 2.0),
    lambda: F.channel_shuffle(torch.ones(1, 4, 2), 2.0),
    lambda: F.group_norm(torch.ones(2, 4, 3), 0),
    lambda: F.pixel_shuffle([1.0], 2),
    lambda: nn.GroupNorm(0, 4),
]:
    try:
        bad()
    except Exception as ex:
        print(type(ex).__name__, ex)
print(nn.InstanceNorm2d(6)(torch.ones(6, 3, 3)).shape)
print(F.group_norm(torch.ones(2, 6), 3))
