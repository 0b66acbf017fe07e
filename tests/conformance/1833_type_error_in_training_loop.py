# A training loop where a list slips into the loss: the error names the argument
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
X = torch.randn(4, 2)
targets = [0.0, 1.0, 1.0, 0.0]
try:
    residual = torch.sub(model(X).squeeze(1), targets)
except TypeError as e:
    print("TypeError:", e)
try:
    scores = torch.matmul(targets, X)
except TypeError as e:
    print("TypeError:", e)
loss = nn.functional.mse_loss(model(X).squeeze(1), torch.tensor(targets))
loss.backward()
print(loss, model.bias.grad)
