# Saved-tensor hooks around a module's forward: count and size of what a small network saves.
import torch
from torch import nn
from torch.autograd.graph import saved_tensors_hooks

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
X = torch.randn(3, 4)
shapes = []
unpacked = []


def pack(t):
    shapes.append(tuple(t.shape))
    return t


def unpack(t):
    unpacked.append(tuple(t.shape))
    return t


with saved_tensors_hooks(pack, unpack):
    logits = model(X)
    loss = nn.functional.mse_loss(logits, torch.ones(3, 2))
print(len(shapes), shapes)
loss.backward()
print(len(unpacked))
print(model[0].weight.grad)

# the same gradients without hooks
grads = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
nn.functional.mse_loss(model(X), torch.ones(3, 2)).backward()
print(all(torch.equal(g, p.grad) for g, p in zip(grads, model.parameters())))
