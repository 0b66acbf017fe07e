# A WGAN-GP critic with InstanceNorm2d(affine=True) (the WGAN-GP paper advises against batch norm
# in the critic; Aladdin Persson's and other GAN tutorials use instance norm there) and the
# gradient penalty: torch.autograd.grad with create_graph=True through instance norm, then
# backward through that gradient (in float64); and a U-Net style block with GroupNorm and ReplicationPad2d
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)  # (second derivatives: float32 rounding would differ)
torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self, channels_img, features_d):
        super().__init__()
        self.disc = nn.Sequential(
            nn.Conv2d(channels_img, features_d, kernel_size=4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            self._block(features_d, features_d * 2, 4, 2, 1),
            nn.Conv2d(features_d * 2, 1, kernel_size=2, stride=1, padding=0),
        )

    def _block(self, in_channels, out_channels, kernel_size, stride, padding):
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.InstanceNorm2d(out_channels, affine=True),
            nn.LeakyReLU(0.2),
        )

    def forward(self, x):
        return self.disc(x)


def gradient_penalty(critic, real, fake):
    batch_size, c, h, w = real.shape
    alpha = torch.rand((batch_size, 1, 1, 1)).repeat(1, c, h, w)
    interpolated_images = (real * alpha + fake * (1 - alpha)).requires_grad_(True)
    mixed_scores = critic(interpolated_images)
    gradient = torch.autograd.grad(
        inputs=interpolated_images,
        outputs=mixed_scores,
        grad_outputs=torch.ones_like(mixed_scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    gradient = gradient.view(gradient.shape[0], -1)
    gradient_norm = gradient.norm(2, dim=1)
    return torch.mean((gradient_norm - 1) ** 2)


critic = Critic(1, 4)
print(critic)
real = torch.rand(3, 1, 8, 8)
fake = torch.rand(3, 1, 8, 8)
critic_real = critic(real).reshape(-1)
critic_fake = critic(fake).reshape(-1)
gp = gradient_penalty(critic, real, fake)
loss_critic = -(torch.mean(critic_real) - torch.mean(critic_fake)) + 10 * gp
print(critic_real.shape, round(gp.item(), 5), round(loss_critic.item(), 5))
print(gp.grad_fn)
loss_critic.backward()
norm = critic.disc[2][1]
print(norm.weight.grad, norm.bias.grad)
print(critic.disc[0].weight.grad[0, 0])


class UpBlock(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.pad = nn.ReplicationPad2d(1)
        self.conv = nn.Conv2d(cin, cout, 3)
        self.norm = nn.GroupNorm(groups, cout)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(self.pad(x))))


torch.manual_seed(3)
block = UpBlock(2, 4, 2)
print(block)
x = torch.randn(2, 2, 5, 5, requires_grad=True)
y = block(x)
print(y.shape, y.grad_fn, y.grad_fn.next_functions[0][0])
(g,) = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
print(g[0, 0])
g.pow(2).sum().backward()
print(block.norm.weight.grad, block.norm.bias.grad)
print(x.grad[1, 1])
