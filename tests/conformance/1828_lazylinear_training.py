# A lazy MLP trained a few steps; the optimizer is made after a dry run
import torch
from torch import nn

torch.manual_seed(1)
model = nn.Sequential(nn.LazyLinear(8), nn.Tanh(), nn.LazyLinear(1))
X = torch.randn(16, 3)
y = X.sum(dim=1, keepdim=True) ** 2
model(X)  # dry run initialises the parameters
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(model[0].weight.grad.shape, model[2].bias.grad)
print(sum(p.numel() for p in model.parameters()))
