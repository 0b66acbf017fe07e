import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
print(layer.weight)
print(layer.bias)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.data.flatten()[:4])

x = torch.randn(2, 4)
print(model(x))

torch.manual_seed(1)
net = nn.Linear(10, 1)
print(net.weight.abs().max() <= 1 / 10**0.5, net.bias)
torch.manual_seed(1)
print(nn.Linear(10, 1, dtype=torch.float64).weight)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 4)
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


torch.manual_seed(123)
net = Net()
print(net.fc1.weight)
print(net(torch.ones(2, 5)))
