import io

import torch
import torch.nn as nn

# Checkpointing a recurrent model mid-training (d2l / blog pattern): save model and optimizer
# state to a buffer, keep training, restore, and train again: the same losses both times.
torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(2, 5, batch_first=True)
        self.fc = nn.Linear(5, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


model = Model()
opt = torch.optim.Adamax(model.parameters(), lr=0.02)
x = torch.randn(6, 4, 2)
y = x.sum(dim=(1, 2)).unsqueeze(1)


def train(steps):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(f"{loss.item():.5f}")
    return losses


print(train(3))
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buffer)
first = train(3)
buffer.seek(0)
checkpoint = torch.load(buffer)
model.load_state_dict(checkpoint["model"])
opt.load_state_dict(checkpoint["opt"])
second = train(3)
print(first)
print(second)
print(first == second)
print(list(checkpoint["model"].keys()))
