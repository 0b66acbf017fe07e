# The tutorial's polynomial fit with autograd, then nn (manual update), then nn + optim.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

a = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(-0.2, requires_grad=True)
c = torch.tensor(0.1, requires_grad=True)
d = torch.tensor(0.3, requires_grad=True)
learning_rate = 1e-6
for t in range(500):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.2f}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f"autograd: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
torch.nn.init.zeros_(model[0].weight)
torch.nn.init.zeros_(model[0].bias)
loss_fn = torch.nn.MSELoss(reduction="sum")
for t in range(500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.2f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(
    f"nn: y = {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 2].item():.4f} x^3"
    f" (others near 0: {abs(linear_layer.bias.item()) < 1e-3}, "
    f"{abs(linear_layer.weight[0, 1].item()) < 1e-3})"
)

y = torch.sin(x) + 0.25 * x**2 - 0.5  # not odd: no coefficient's gradient is pure noise
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
torch.nn.init.zeros_(model[0].weight)
torch.nn.init.zeros_(model[0].bias)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.2f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(linear_layer.weight, linear_layer.bias)
