# Early stopping as tutorials write it: keep the best model (and the best state_dict) with
# copy.deepcopy, train on, then restore the best weights; the copies do not move with training.
import copy

import torch
from torch import nn

torch.manual_seed(0)
X = torch.linspace(-1, 1, 24).unsqueeze(1)
y = torch.sin(3 * X) + 0.1 * torch.cos(7 * X)
X_val, y_val = X[::3] + 0.05, y[::3]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
        self.register_buffer("epochs_seen", torch.zeros(()))

    def forward(self, x):
        return self.body(x)


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
loss_fn = nn.MSELoss()
best_loss, best_model, best_state, patience = float("inf"), None, None, 0
for epoch in range(200):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    model.epochs_seen += 1
    with torch.no_grad():
        val = loss_fn(model(X_val), y_val).item()
    if val < best_loss - 1e-4:
        best_loss, patience = val, 0
        best_model = copy.deepcopy(model)
        best_state = copy.deepcopy(model.state_dict())
    else:
        patience += 1
        if patience == 5:
            print("stopping at epoch", epoch)
            break
print(f"best validation loss {best_loss:.6f}")
print(type(best_model).__name__, best_model.epochs_seen, model.epochs_seen)
print(best_model.body[0].weight is model.body[0].weight)
print(list(best_state), type(best_state).__name__)
with torch.no_grad():
    print(f"{loss_fn(best_model(X_val), y_val).item():.6f}")
    print(torch.equal(best_state["body.0.weight"], best_model.body[0].weight))
model.load_state_dict(best_state)
with torch.no_grad():
    print(f"restored {loss_fn(model(X_val), y_val).item():.6f}")
print(best_model.body[2].weight.requires_grad, best_model.body[2].weight.grad is None)
print(best_model.body[2].weight.grad)
