# PyTorch "Training a classifier" / d2l LeNet: a few SGD steps on random data; losses and grads
# The weight gradients are sums of 4·28·28 = 3136 float32 products of magnitude up to ~0.02, added
# in another order than PyTorch's oneDNN kernel (im2col + BLAS): entries near zero (4e-5) keep
# the absolute error of that sum, a few ulps of its largest terms (2 seen; sqrt(3136) = 56 at
# random), so they are compared within:
# golden-tolerance: 16 float32 ulps at 0.02
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


torch.manual_seed(0)
net = Net()
print(net)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
inputs = torch.randn(4, 3, 32, 32)
labels = torch.tensor([3, 8, 8, 0])
for step in range(3):
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}")
print(outputs.grad_fn, loss.grad_fn)
print(net.conv1.weight.grad[0, 0])
print(net.conv2.bias.grad)
params = list(net.parameters())
print(len(params), [tuple(p.shape) for p in params])
