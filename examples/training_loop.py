# A training loop: fit y = 2x - 1 with nn.Linear, MSE loss and SGD, as the tutorials do by hand.
import torch

xs = torch.tensor([[0.0], [1.0], [2.0], [3.0]])
ys = 2 * xs - 1

model = torch.nn.Linear(1, 1)
with torch.no_grad():  # a fixed start, so the output does not depend on the random generator
    model.weight.fill_(0.5)
    model.bias.fill_(0.0)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(200):
    optimizer.zero_grad()
    loss = ((model(xs) - ys) ** 2).mean()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step}: loss {loss.item():.4f}")

print("weight:", round(model.weight.item(), 3), "bias:", round(model.bias.item(), 3))
