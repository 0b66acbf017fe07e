# A lazy layer inside a custom Module (PyTorch's "Lazy modules" docs pattern)
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.LazyLinear(4)
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


torch.manual_seed(7)
net = MLP()
print(net)
x = torch.randn(5, 6)
y = net(x)
print(net)
print(y.shape, y.grad_fn.name())
y.mean().backward()
print(net.hidden.weight.grad.shape, net.hidden.bias.grad)
print([name for name, _ in net.named_parameters()])
