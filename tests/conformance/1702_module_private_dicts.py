# Printing a model's registries as tutorials on nn.Module internals do: `_modules`,
# `_parameters`, `_buffers` (BatchNorm's running statistics), walked by hand
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.fc2 = nn.Linear(4, 1)
        self.scale = nn.Parameter(torch.tensor(2.0))
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        self.steps += 1
        return self.fc2(torch.relu(self.bn(self.fc1(x)))) * self.scale


net = Net()
print(net._modules)
print(list(net._modules.keys()), type(net._modules).__name__)
print(net._parameters)
print(net._buffers)
print(net.bn._buffers.keys())
print(net.fc1._parameters["weight"].shape, net.fc1._parameters["bias"])
print(net.fc1._modules, net.fc1._buffers)


def walk(module, prefix=""):
    for name, p in module._parameters.items():
        print(prefix + name, tuple(p.shape), p.requires_grad)
    for name, child in module._modules.items():
        walk(child, prefix + name + ".")


walk(net)
x = torch.randn(6, 3)
out = net(x)
out.sum().backward()
print(net._buffers["steps"], net.bn._buffers["running_mean"])
print(net._parameters["scale"].grad)
print(net._modules["fc2"]._parameters["bias"].grad)
print(len(net._modules), "fc1" in net._modules, "scale" in net._parameters)
