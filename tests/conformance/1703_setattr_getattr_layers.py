# ruff: noqa: B009, B010 - getattr/setattr with names are the subject
# Layers made in a loop with setattr(self, f"fc{i}", ...) and used with getattr(self, ...),
# a pattern of many MLP tutorials written before nn.ModuleList was known to their authors
import torch
from torch import nn

torch.manual_seed(1)


class DynamicNet(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.n_layers = len(sizes) - 1
        for i in range(self.n_layers):
            setattr(self, f"fc{i}", nn.Linear(sizes[i], sizes[i + 1]))
        setattr(self, "act", nn.Tanh())

    def forward(self, x):
        for i in range(self.n_layers):
            x = getattr(self, f"fc{i}")(x)
            if i < self.n_layers - 1:
                x = getattr(self, "act")(x)
        return x


net = DynamicNet([2, 5, 3, 1])
print(net)
print([name for name, _ in net.named_parameters()])
print(getattr(net, "fc3", None), getattr(net, "fc1").out_features, hasattr(net, "fc2"))
x = torch.randn(4, 2)
y = net(x)
print(y.grad_fn, y.shape)
y.pow(2).mean().backward()
for i in range(net.n_layers):
    layer = getattr(net, f"fc{i}")
    print(i, layer.weight.grad.norm().item() > 0, layer.bias.grad)
try:
    getattr(net, "fc9")
except AttributeError as e:
    print("AttributeError:", e)
try:
    getattr(net, 3)
except TypeError as e:
    print("TypeError:", e)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
opt.step()
print(net(x).detach())
