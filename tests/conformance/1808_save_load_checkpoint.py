import io

import torch
import torch.nn as nn
import torch.optim as optim


# PyTorch recipe "Saving and loading a general checkpoint", with an in-memory buffer in place of
# the file: model and optimizer state dicts, epoch and loss saved, then loaded into new objects.
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(5, 4)
loss = net(x).pow(2).mean()
loss.backward()
optimizer.step()
EPOCH = 5
buffer = io.BytesIO()
torch.save(
    {
        "epoch": EPOCH,
        "model_state_dict": net.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
        "loss": loss,
    },
    buffer,
)
buffer.seek(0)
model = Net()
optimizer2 = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buffer, weights_only=True)
print(model.load_state_dict(checkpoint["model_state_dict"]))
optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
epoch = checkpoint["epoch"]
loss = checkpoint["loss"]
print(epoch, loss, loss.requires_grad, loss.grad_fn)
model.eval()
print(torch.equal(model(x), net(x)))
print(optimizer2.state_dict()["state"][3])
print(optimizer2)
print(sorted(checkpoint.keys()))
print(type(checkpoint["model_state_dict"]))
