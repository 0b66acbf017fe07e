import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(0)
X = rng.normal(size=(100, 2))
true_w = np.array([2.0, -3.4])
true_b = 4.2
y = X @ true_w + true_b + rng.normal(0, 0.01, size=100)

features = torch.from_numpy(X).float()
labels = torch.from_numpy(y).float().reshape(-1, 1)
w = torch.zeros(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(50):
    loss = ((features @ w + b - labels) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if epoch % 10 == 0:
        print(epoch, round(loss.item(), 4))
print(np.round(w.detach().numpy().ravel(), 2), round(b.item(), 2))
print(np.allclose(w.detach().numpy().ravel(), true_w, atol=0.05))


class Data(Dataset):
    def __init__(self):
        self.x = np.arange(12, dtype=np.float32).reshape(6, 2)
        self.y = np.arange(6)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


for xb, yb in DataLoader(Data(), batch_size=4):
    print(xb, yb)
