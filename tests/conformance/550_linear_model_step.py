import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
target = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.1, -0.2], requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
for step in range(3):
    pred = x @ w + b
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    print(step, loss.item())
    print(w.grad, b.grad)
    with torch.no_grad():
        w -= 0.01 * w.grad
        b -= 0.01 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w)
print(b)
