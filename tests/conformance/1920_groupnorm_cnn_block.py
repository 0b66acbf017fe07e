# A small CNN block with GroupNorm instead of BatchNorm (Wu & He's GroupNorm paper; the PyTorch
# docs' nn.GroupNorm example; ResNet variants for small batches): conv -> GroupNorm -> ReLU ->
# max pool, one SGD step; values, grad_fns, shapes and the GroupNorm parameters' gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
input = torch.randn(20, 6, 10, 10)
m = nn.GroupNorm(3, 6)  # separate 6 channels into 3 groups
print(m, m(input).shape)
m = nn.GroupNorm(6, 6)  # instance norm equivalent
print(m(input)[0, 0, 0, :4])
m = nn.GroupNorm(1, 6)  # layer norm equivalent
print(m(input)[1, 2, 3, :4])


class Block(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.gn = nn.GroupNorm(groups, cout)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(F.relu(self.gn(self.conv(x))))


torch.manual_seed(1)
net = nn.Sequential(Block(3, 8, 4), Block(8, 8, 2), nn.Flatten(), nn.Linear(8 * 2 * 2, 5))
print(net)
x = torch.randn(4, 3, 8, 8)
target = torch.tensor([0, 3, 1, 4])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    out = net(x)
    loss = F.cross_entropy(out, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
gn = net[0].gn
print(gn.weight.grad, gn.bias.grad)
print(gn.weight, net[1].gn.bias)
h = net[0].gn(net[0].conv(x))
print(h.grad_fn, h.grad_fn.next_functions)
print(h.shape, h.mean(dim=(2, 3))[0])

# the functional form, with and without the affine parameters
y = torch.arange(24.0).view(2, 4, 3).requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5, -1.0], requires_grad=True)
b = torch.tensor([0.0, 0.1, 0.2, 0.3], requires_grad=True)
z = F.group_norm(y, 2, w, b, eps=1e-3)
print(z)
(z * torch.linspace(-1, 1, 24).view(2, 4, 3)).sum().backward()
print(y.grad, w.grad, b.grad)
print(torch.group_norm(y, 4).grad_fn)
print(nn.GroupNorm(2, 4, affine=False), nn.GroupNorm(2, 4, affine=False).state_dict())
