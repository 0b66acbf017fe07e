import torch
import torch.nn as nn

# The classic first tutorial: fit y = 2x + 1 with noise.
torch.manual_seed(42)
X = torch.randn(100, 1)
y = 2 * X + 1 + 0.1 * torch.randn(100, 1)

model = nn.Linear(1, 1)
print("init", model.weight.item(), model.bias.item())
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(50):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")

print(f"w = {model.weight.item():.4f}, b = {model.bias.item():.4f}")
