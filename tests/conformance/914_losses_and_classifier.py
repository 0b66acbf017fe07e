import torch
import torch.nn as nn

x = torch.linspace(-1, 1, 8).reshape(4, 2)
y = torch.tensor([[1.0], [0.0], [1.0], [0.0]])
labels = torch.tensor([0, 1, 1, 0])
score = x.sum(1, keepdim=True)
print(nn.MSELoss()(score, y), nn.MSELoss(reduction="sum")(score, y))
print(nn.MSELoss(reduction="none")(score, y))
print(nn.L1Loss()(score, y), nn.L1Loss(reduction="sum")(score, y))
print(nn.BCEWithLogitsLoss()(score, y))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(score, y))
print(nn.BCELoss()(torch.sigmoid(score), y))
print(nn.CrossEntropyLoss()(x, labels))
print(nn.CrossEntropyLoss(reduction="sum")(x, labels))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))

    def forward(self, x):
        return self.layers(x)


model = Classifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + i % 2))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)
data = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.2], [0.2, 0.9]])
target = torch.tensor([0, 1, 1, 0, 1, 1])
for epoch in range(30):
    opt.zero_grad()
    logits = model(data)
    loss = loss_fn(logits, target)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        accuracy = (logits.argmax(dim=1) == target).float().mean()
        print(epoch, f"{loss.item():.4f}", f"{accuracy.item():.3f}")
model.eval()
with torch.no_grad():
    print(nn.Softmax(dim=1)(model(data)))
print(model.state_dict()["layers.2.bias"])
