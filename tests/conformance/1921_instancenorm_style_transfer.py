# The fast neural style transfer network of the PyTorch examples (examples/fast_neural_style):
# ConvLayer = ReflectionPad2d + Conv2d, InstanceNorm2d(affine=True) after each conv, residual
# blocks; plus a CycleGAN/pix2pix-style norm layer with track_running_stats, in train and eval
import torch
import torch.nn as nn


class ConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super().__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = nn.ReflectionPad2d(reflection_padding)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = nn.InstanceNorm2d(channels, affine=True)
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


torch.manual_seed(0)
net = nn.Sequential(
    ConvLayer(3, 4, kernel_size=3, stride=1),
    nn.InstanceNorm2d(4, affine=True),
    nn.ReLU(),
    ResidualBlock(4),
    ConvLayer(4, 3, kernel_size=3, stride=1),
)
print(net)
x = torch.rand(2, 3, 6, 6)
y = net(x)
print(y.shape, y[0, 0, 0])
print(net[1](net[0](x)).grad_fn)
node = net[1](net[0](x)).grad_fn.next_functions[0][0]
print(node, [type(n).__name__ for n, _ in node.next_functions])
content = torch.rand(2, 3, 6, 6)
loss = nn.MSELoss()(y, content)
loss.backward()
print(round(loss.item(), 6))
print(net[1].weight.grad, net[1].bias.grad)
print(net[3].in2.weight.grad)
print(net[0].conv2d.weight.grad[0, 0])

# the padding the ConvLayer adds
t = torch.arange(9.0).view(1, 1, 3, 3).requires_grad_()
p = nn.ReflectionPad2d(1)(t)
print(p, p.grad_fn)
(p * torch.arange(25.0).view(1, 1, 5, 5)).sum().backward()
print(t.grad)

# InstanceNorm with running statistics (pix2pix's norm_layer with track_running_stats)
norm = nn.InstanceNorm2d(3, momentum=0.2, track_running_stats=True)
print(norm)
h = torch.randn(4, 3, 5, 5) * 2 + 1
out = norm(h)
print(out.mean(dim=(2, 3)).abs().max() < 1e-5, out.var(dim=(2, 3), unbiased=False)[0])
print(norm.running_mean, norm.running_var, norm.num_batches_tracked)
norm.eval()
print(norm(h)[0, 0, 0])
print(list(norm.state_dict().keys()))
one = nn.InstanceNorm1d(2)
print(one(torch.tensor([[1.0, 2.0, 4.0], [0.0, -1.0, 1.0]])))
