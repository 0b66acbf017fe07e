from __future__ import annotations

# A typed training script as modern tutorials write it: `from __future__ import annotations`
# first, annotated functions and methods (the annotations are never evaluated)
import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self, n_in: int, n_out: int = 1) -> None:
        super().__init__()
        self.linear = nn.Linear(n_in, n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)


def train_step(model: Regressor, opt: torch.optim.Optimizer, x: torch.Tensor, y: Tensor) -> float:  # noqa: F821 - never evaluated
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


torch.manual_seed(4)
model = Regressor(2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 2)
y = x @ torch.tensor([[2.0], [-1.0]]) + 0.5
for epoch in range(3):
    print(epoch, round(train_step(model, opt, x, y), 6))
print(model.linear.weight.grad, model.linear.bias)
print(train_step.__code__.co_varnames)
