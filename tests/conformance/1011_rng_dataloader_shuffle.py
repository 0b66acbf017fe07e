import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, random_split

torch.manual_seed(0)
data = TensorDataset(torch.arange(10).float(), torch.arange(10) % 3)
loader = DataLoader(data, batch_size=4, shuffle=True)
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, xb, yb)

train, test = random_split(range(20), [15, 5])
print(list(train), list(test))
print(list(RandomSampler(range(7))))
print(list(RandomSampler(range(5), replacement=True, num_samples=12)))
g = torch.Generator().manual_seed(11)
print([b.tolist() for b, _ in DataLoader(data, batch_size=5, shuffle=True, generator=g)])
print(torch.rand(2))

# a mini-batch training loop over a shuffled loader
torch.manual_seed(1)
X = torch.randn(32, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    total = 0.0
    for xb, yb in DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True):
        opt.zero_grad()
        loss = ((model(xb) - yb) ** 2).mean()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 4))
