# Seeded synthetic data drawn lazily by a generator, fitted with nn.Linear and SGD.
import torch
from torch import nn


def synthetic(n_batches, batch_size, true_w, true_b):
    for _ in range(n_batches):
        x = torch.randn(batch_size, 2)
        noise = 0.01 * torch.randn(batch_size, 1)
        yield x, x @ true_w + true_b + noise


torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
true_w = torch.tensor([[2.0], [-3.4]])
for epoch in range(3):
    losses = []
    for x, y in synthetic(10, 8, true_w, 4.2):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(epoch, f"{sum(losses) / len(losses):.4f}")
print(model.weight.data, model.bias.data)
