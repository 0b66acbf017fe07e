# A training loop under detect_anomaly: same numbers as without it; a diverging loss is caught
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")


def train(anomaly, lr, steps):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    t = torch.tensor([[1.0], [1.0], [0.0], [0.0]])
    losses = []
    with torch.autograd.set_detect_anomaly(anomaly):
        for _ in range(steps):
            opt.zero_grad()
            loss = torch.log(((model(x) - t) ** 2).mean())
            loss.backward()
            opt.step()
            losses.append(round(loss.item(), 4))
    return losses, model[0].weight


print(train(False, 0.1, 5))
print(train(True, 0.1, 5))
print(torch.is_anomaly_enabled())

# NaN parameters make a NaN loss: the first backward node meeting it stops the step
torch.manual_seed(0)
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight[0, 0] = float("nan")
with torch.autograd.detect_anomaly():
    loss = model(torch.ones(1, 2)).pow(2).sum()
    print(loss)
    try:
        loss.backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(model.weight.grad)
