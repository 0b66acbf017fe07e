# The PyTorch "learn the basics" training loop written with type hints throughout (signatures,
# annotated locals, a typed module attribute).
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class NeuralNetwork(nn.Module):
    n_hidden: int = 8

    def __init__(self) -> None:
        super().__init__()
        self.flatten: nn.Flatten = nn.Flatten()
        self.stack: nn.Sequential = nn.Sequential(
            nn.Linear(4, self.n_hidden), nn.ReLU(), nn.Linear(self.n_hidden, 3)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.stack(self.flatten(x))
        return logits


def train_loop(dataloader: DataLoader, model: nn.Module, loss_fn, optimizer) -> float:
    model.train()
    total: float = 0.0
    for X, y in dataloader:
        pred: torch.Tensor = model(X)
        loss: torch.Tensor = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        total += loss.item()
    return total


torch.manual_seed(0)
data = TensorDataset(torch.randn(12, 2, 2), torch.randint(0, 3, (12,)))
loader: DataLoader = DataLoader(data, batch_size=4)
model = NeuralNetwork()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    print(epoch, round(train_loop(loader, model, nn.CrossEntropyLoss(), opt), 5))
print(NeuralNetwork.__annotations__, NeuralNetwork.forward.__annotations__)
print(train_loop.__annotations__["return"], train_loop.__annotations__["model"])
