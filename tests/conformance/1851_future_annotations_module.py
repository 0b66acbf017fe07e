# A model file written with `from __future__ import annotations` (as many repositories do):
# annotations are never evaluated, so forward references and undefined names are fine.
from __future__ import annotations

import torch
from torch import nn


class TwoLayer(nn.Module):
    hidden: int
    act: nn.Module

    def __init__(self, d_in: int, hidden: int, d_out: int) -> None:
        super().__init__()
        self.hidden: int = hidden
        self.fc1: nn.Linear = nn.Linear(d_in, hidden)
        self.fc2: nn.Linear = nn.Linear(hidden, d_out)
        self.act: nn.Module = nn.Tanh()

    def forward(self, x: Tensor) -> Tensor:  # noqa: F821 - never evaluated
        h: Tensor = self.act(self.fc1(x))  # noqa: F821
        return self.fc2(h)

    def clone_empty(self) -> TwoLayer:
        return TwoLayer(self.fc1.in_features, self.hidden, self.fc2.out_features)


torch.manual_seed(1)
model = TwoLayer(3, 4, 2)
out = model(torch.randn(5, 3))
out.sum().backward()
print(out.grad_fn, out.shape)
print(model.fc1.weight.grad.sum())
print(TwoLayer.__annotations__)
print(TwoLayer.forward.__annotations__)
print(TwoLayer.clone_empty.__annotations__)
print(type(model.clone_empty()).__name__)
