# An IterableDataset whose __iter__ is a generator, read through a DataLoader.
import torch
from torch.utils.data import DataLoader, IterableDataset


class Squares(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            x = torch.tensor([float(i)])
            yield x, x**2


dataset = Squares(7)
print([(x.item(), y.item()) for x, y in dataset])
loader = DataLoader(dataset, batch_size=3)
w = torch.tensor([[0.0]], requires_grad=True)
for epoch in range(3):
    for xb, yb in loader:
        loss = ((xb * w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        w.grad.zero_()
    print(epoch, w.item())
print([tuple(xb.shape) for xb, _ in loader])
