import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("scratch", torch.ones(1), persistent=False)

    def forward(self, x):
        return self.fc(x) + self.running


model = nn.Sequential(Block(), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) / 10 - i / 5)
sd = model.state_dict()
print(sd)
print(list(sd.keys()))
print(sd["0.fc.weight"].requires_grad, sd["0.fc.weight"].grad_fn)

other = nn.Sequential(Block(), nn.ReLU(), nn.Linear(2, 1))
print(other.load_state_dict(sd))
print(other[0].fc.weight)
print(torch.equal(other[2].bias, model[2].bias))
x = torch.tensor([[1.0, -2.0], [0.5, 0.5]])
print(torch.equal(other(x), model(x)))

partial = model.state_dict()
del partial["2.bias"]
partial["extra.weight"] = torch.zeros(1)
try:
    other.load_state_dict(partial)
except RuntimeError as e:
    print("RuntimeError:", e)
print(other.load_state_dict(partial, strict=False))

wrong = model.state_dict()
wrong["2.weight"] = torch.zeros(3, 2)
try:
    other.load_state_dict(wrong)
except RuntimeError as e:
    print("RuntimeError:", e)

lin = nn.Linear(3, 1, bias=False)
print(lin.state_dict().keys() == {"weight": 0}.keys())
print(lin)
print(lin.bias)
