# Typed linear regression from scratch, as typed tutorials write it (PEP 526 annotations).
import torch

torch.manual_seed(0)
num_examples: int = 20
true_w: torch.Tensor = torch.tensor([2.0, -3.4])
true_b: float = 4.2
X: torch.Tensor = torch.randn(num_examples, 2)
y: torch.Tensor = X @ true_w + true_b

w: torch.Tensor = torch.zeros(2, requires_grad=True)
b: torch.Tensor = torch.zeros(1, requires_grad=True)
lr: float = 0.1
losses: list


def squared_loss(y_hat: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return ((y_hat - y) ** 2 / 2).mean()


losses = []
for _epoch in range(3):
    loss: torch.Tensor = squared_loss(X @ w + b, y)
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    losses.append(round(loss.item(), 4))
print(losses)
print(w, b)
print(__annotations__)
print(squared_loss.__annotations__)
