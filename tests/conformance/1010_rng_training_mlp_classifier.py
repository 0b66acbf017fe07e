import torch
import torch.nn as nn

torch.manual_seed(0)
n = 200
X = torch.randn(n, 2)
labels = ((X[:, 0] * X[:, 1]) > 0).long()

model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()

for step in range(60):
    model.train()
    optimizer.zero_grad()
    loss = criterion(model(X), labels)
    loss.backward()
    optimizer.step()
    if step % 15 == 0:
        print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    predictions = model(X).argmax(dim=1)
print("accuracy", (predictions == labels).float().mean().item())
print(model[0].weight[:2])
