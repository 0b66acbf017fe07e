import torch
import torch.nn as nn


class TwoLayer(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.act = nn.Tanh()
        self.out = nn.Linear(n_hidden, n_out, bias=False)
        self.scale = nn.Parameter(torch.tensor(2.0))
        self.register_buffer("calls", torch.zeros(1))
        self.label = "two-layer"

    def forward(self, x):
        self.calls += 1
        return self.out(self.act(self.hidden(x))) * self.scale


torch.manual_seed(0)
net = TwoLayer(3, 4, 2)
print(net)
print(net.label, net.training)
for name, p in net.named_parameters():
    print(name, p.shape, p.requires_grad, type(p).__name__)
print([name for name, _ in net.named_children()])
print([type(m).__name__ for m in net.modules()])
print([name for name, _ in net.named_modules()])
print([name for name, _ in net.named_buffers()])
print(len(list(net.parameters())), sum(p.numel() for p in net.parameters()))
print(isinstance(net.hidden.weight, torch.Tensor), isinstance(net.hidden, nn.Module))
print(net.out.bias)

with torch.no_grad():
    net.hidden.weight.copy_(
        torch.tensor([[0.1, -0.2, 0.3], [0.0, 0.5, -0.5], [0.2, 0.2, 0.2], [-0.3, 0.1, 0.0]])
    )
    net.hidden.bias.fill_(0.1)
    net.out.weight.copy_(torch.tensor([[1.0, -1.0, 0.5, 0.0], [0.0, 0.5, 0.5, -1.0]]))
print(net.hidden.weight)

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
y = net(x)
print(y)
print(net.calls)
y.sum().backward()
print(net.hidden.weight.grad)
print(net.scale.grad)
net.zero_grad()
print(net.hidden.weight.grad, net.scale.grad)
y = net(x)
y.sum().backward()
net.zero_grad(set_to_none=False)
print(net.hidden.bias.grad, net.scale.grad)

print(net.eval() is net, net.training, net.hidden.training, net.act.training)
net.train()
print(net.training, net.out.training)
net.train(False)
print(net.training)

try:
    net.missing  # noqa: B018
except AttributeError as e:
    print("AttributeError:", e)
try:
    net.scale = torch.tensor(1.0)
except TypeError as e:
    print("TypeError:", e)


class NoForward(nn.Module):
    pass


try:
    NoForward()(x)
except NotImplementedError as e:
    print("NotImplementedError:", e)


class Early(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))


try:
    Early()
except AttributeError as e:
    print("AttributeError:", e)

net.act = None
print(net)
print(nn.Module())
