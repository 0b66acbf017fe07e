import copy

import torch
import torch.nn as nn

# "Keep the best model" pattern (PyTorch transfer-learning tutorial: best_model_wts =
# copy.deepcopy(model.state_dict())), deep copies of a model, an optimizer and tensors.
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
optimizer = torch.optim.NAdam(model.parameters(), lr=0.05)
X = torch.randn(16, 2)
y = X.sum(dim=1, keepdim=True)
best_loss = float("inf")
best_model_wts = copy.deepcopy(model.state_dict())
for _epoch in range(6):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    optimizer.step()
    if loss.item() < best_loss:
        best_loss = loss.item()
        best_model_wts = copy.deepcopy(model.state_dict())
print(f"{best_loss:.5f}")
model.load_state_dict(best_model_wts)
twin = copy.deepcopy(model)
print(twin)
print(twin[0].weight is model[0].weight, torch.equal(twin[0].weight, model[0].weight))
opt_copy = copy.deepcopy(optimizer)
print(opt_copy.state_dict()["state"][0]["step"], opt_copy.param_groups[0]["lr"])
t = torch.tensor([1.0, 2.0], requires_grad=True)
u = copy.deepcopy(t)
print(u, u.requires_grad, u is t)
rnn = nn.LSTM(2, 3)
rnn_copy = copy.deepcopy(rnn)
x = torch.randn(4, 1, 2)
print(torch.equal(rnn(x)[0], rnn_copy(x)[0]), rnn_copy)
