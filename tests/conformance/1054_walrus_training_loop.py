# The walrus operator in training loops: stop once the loss is small enough.
import torch

x = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
y = torch.tensor([[2.0], [4.0], [6.0], [8.0]])
w = torch.tensor([[0.0]], requires_grad=True)

step = 0
while (loss := ((x @ w - y) ** 2).mean()).item() > 1e-4:
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad.zero_()
    step += 1
print(step, round(loss.item(), 8), w)

if (grad_norm := torch.linalg.norm(torch.tensor([3.0, 4.0]))) > 1:
    print("clipping, norm was", grad_norm)

losses = [0.9, 0.5, 0.31, 0.3, 0.299]
improvements = [
    round(prev - cur, 3) for prev, cur in zip(losses, losses[1:]) if (prev - cur) > 0.01
]
print(improvements)
values = iter(torch.arange(5.0))
while (v := next(values, None)) is not None:
    print(v.item(), end=" ")
print()
print((n := torch.tensor(3.0)) ** 2, n)
