# A typed training loop in the style of PyTorch's tutorials ("Training with PyTorch",
# "Writing custom datasets"): functions annotated with typing's List/Tuple/Optional/Dict.
# ruff: noqa: UP006, UP007, UP035, UP045 - typing's spellings are the subject
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
from torch import Tensor

torch.manual_seed(0)


def make_data(n: int, noise: float = 0.1) -> Tuple[Tensor, Tensor]:
    x = torch.linspace(-1, 1, n).unsqueeze(1)
    y = 3 * x + 0.5 + noise * torch.randn(n, 1)
    return x, y


def batches(x: Tensor, y: Tensor, size: int) -> List[Tuple[Tensor, Tensor]]:
    return [(x[i : i + size], y[i : i + size]) for i in range(0, len(x), size)]


def train_epoch(
    model: nn.Module,
    data: List[Tuple[Tensor, Tensor]],
    optimizer: torch.optim.Optimizer,
    clip: Optional[float] = None,
) -> Dict[str, float]:
    total = 0.0
    for xb, yb in data:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        if clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item()
    return {"loss": total / len(data)}


x, y = make_data(32)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history: List[Dict[str, float]] = []
for epoch in range(5):
    stats = train_epoch(model, batches(x, y, 8), opt, clip=1.0 if epoch == 0 else None)
    history.append(stats)
    print(f"epoch {epoch}: loss {stats['loss']:.4f}")
print(model.weight, model.bias)
print(model.weight.grad, model.bias.grad)
print(train_epoch.__annotations__)
print(make_data.__annotations__["return"], batches.__annotations__["return"])
print(__annotations__)
