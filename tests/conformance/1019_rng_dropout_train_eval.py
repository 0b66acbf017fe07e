import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(64, 10)
true_w = torch.randn(10, 1)
y = X @ true_w + 0.1 * torch.randn(64, 1)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()

for epoch in range(40):
    model.train()
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        model.eval()
        with torch.no_grad():
            eval_loss = loss_fn(model(X), y)
        print(f"epoch {epoch + 1}: train {loss.item():.4f} eval {eval_loss.item():.4f}")

# dropout masks differ between calls in training mode, not in eval mode
model.train()
a, b = model(X[:2]), model(X[:2])
print(torch.equal(a, b))
model.eval()
print(torch.equal(model(X[:2]), model(X[:2])))
print(model(X[:3]).flatten())
