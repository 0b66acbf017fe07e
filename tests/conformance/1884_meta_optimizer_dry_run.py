# A "dry run" of a training step on the meta device, as big-model tutorials use it to check a
# model and its optimizer fit together before allocating: forward, loss, backward, clipping,
# optimizer steps and their state, all meta; deep copies and state dicts stay meta.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Dropout(0.2), nn.Linear(5, 2)).to("meta")
x = torch.empty(4, 3, device="meta")
target = torch.empty(4, dtype=torch.long, device="meta")
logits = model(x)
loss = F.cross_entropy(logits, target)
print(logits, loss, type(loss.grad_fn).__name__)
loss.backward()
print(model[0].weight.grad, model[3].bias.grad)
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0))
sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sgd.step()
print(model[0].weight, sgd.state[model[0].weight]["momentum_buffer"])
adam = torch.optim.Adam(model.parameters())
adam.step()
print(adam.state[model[3].bias]["exp_avg"], adam.state[model[3].bias]["step"])
print(model.state_dict()["3.bias"], list(model.state_dict()))
twin = copy.deepcopy(model)
print(twin[0].weight, twin[0].weight is model[0].weight)
t = torch.empty(2, 3, device="meta")
print(copy.deepcopy(t), t.clone(), t.detach().requires_grad_())
print(t.argmax(1), t.argmin(), logits.argmax(dim=1))
print(torch.where(t > 0, t, torch.zeros(2, 3, device="meta")), t.masked_fill(t > 0, 1.0))
print(t.double(), t.long().dtype, t.softmax(-1), F.dropout(t, 0.5))
print(torch.einsum("ij,kj->ik", t, t), t.view(6), t[0, 1], t[:, None].shape)
print(torch.rand(2))  # dropout on the meta device drew nothing
