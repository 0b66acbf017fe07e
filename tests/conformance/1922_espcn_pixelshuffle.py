# ESPCN super-resolution (the PyTorch examples' super_resolution model and the ONNX tutorial's
# SuperResolutionNet): convolutions to upscale_factor**2 channels, then nn.PixelShuffle; one
# training step on a tiny low-resolution batch, and pixel_unshuffle undoing the shuffle
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init


class SuperResolutionNet(nn.Module):
    def __init__(self, upscale_factor, inplace=False):
        super().__init__()
        self.relu = nn.ReLU(inplace=inplace)
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(4, upscale_factor**2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv3.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv4.weight)


torch.manual_seed(0)
model = SuperResolutionNet(upscale_factor=3)
print(model)
lr = torch.rand(2, 1, 4, 4)
hr = torch.rand(2, 1, 12, 12)
out = model(lr)
print(out.shape, out.grad_fn, out.grad_fn.next_functions)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(lr), hr)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 6))
print(model.conv4.bias.grad)
print(model.conv4.weight.grad.abs().sum())

# the shuffle itself: (N, C*r^2, H, W) -> (N, C, H*r, W*r), and back
pixel_shuffle = nn.PixelShuffle(3)
input = torch.randn(1, 9, 4, 4)
output = pixel_shuffle(input)
print(output.size())
pixel_unshuffle = nn.PixelUnshuffle(3)
print(pixel_unshuffle, pixel_unshuffle(output).size(), torch.equal(pixel_unshuffle(output), input))
x = torch.arange(16.0).view(1, 4, 2, 2).requires_grad_()
y = F.pixel_shuffle(x, 2)
print(y)
(y * torch.arange(16.0).view(1, 1, 4, 4)).sum().backward()
print(x.grad)
u = torch.pixel_unshuffle(torch.arange(32.0).view(2, 4, 4).requires_grad_(), 2)
print(u.shape, u.grad_fn, u[1])
print(torch.pixel_shuffle(torch.ones(3, 2, 8, 1, 1), 2).shape)
