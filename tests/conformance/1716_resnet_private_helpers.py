# torchvision-style model code: private builders `_make_layer`, `_init_weights` and
# `_forward_impl` (ResNet's names) in a small residual MLP, with a private activation cache
import torch
from torch import nn

torch.manual_seed(10)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        return torch.relu(x + self.fc(x))


class ResMLP(nn.Module):
    def __init__(self, width, depth, n_out):
        super().__init__()
        self._width = width
        self.stem = nn.Linear(3, width)
        self.layer1 = self._make_layer(depth)
        self.head = nn.Linear(width, n_out)
        self._feature_cache = []
        self._init_weights()

    def _make_layer(self, depth):
        return nn.Sequential(*[Block(self._width) for _ in range(depth)])

    def _init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.1)
                nn.init.zeros_(m.bias)

    def _forward_impl(self, x):
        x = self.stem(x)
        x = self.layer1(x)
        self._feature_cache.append(x.detach())
        return self.head(x)

    def forward(self, x):
        return self._forward_impl(x)


net = ResMLP(4, 2, 2)
print(net)
print(net._width, len(net._feature_cache), callable(net._make_layer))
out = net(torch.randn(5, 3))
print(out.grad_fn, out.shape, len(net._feature_cache), net._feature_cache[0].requires_grad)
loss = nn.functional.cross_entropy(out, torch.tensor([0, 1, 1, 0, 1]))
loss.backward()
print(round(loss.item(), 6))
print(net.layer1[0].fc.weight.grad.abs().sum() > 0, net.head.bias.grad)
net._feature_cache.clear()
net._width = 8
print(net._width, net._feature_cache, "_width" in dir(net), "_make_layer" in dir(net))
