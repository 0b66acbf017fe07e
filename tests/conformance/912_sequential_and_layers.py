import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Linear(4, 3),
    nn.ReLU(),
    nn.Sequential(nn.Linear(3, 3), nn.Tanh()),
    nn.Linear(3, 2),
    nn.Softmax(dim=1),
)
print(model)
print(len(model))
print(model[0])
print(model[-1])
print(model[2][1])
print(model[1:3])
for layer in model:
    print(type(layer).__name__)
try:
    model[7]
except IndexError as e:
    print("IndexError:", e)
print([name for name, _ in model.named_parameters()])
print([tuple(p.shape) for p in model.parameters()])

named = nn.Sequential()
named.add_module("first", nn.Linear(2, 2))
named.add_module("act", nn.Sigmoid())
print(named)
print(named.first, len(named))

print(nn.ReLU(), nn.ReLU(inplace=True), nn.Tanh(), nn.Sigmoid(), nn.Softmax(), nn.Softmax(dim=-1))
print(nn.Linear(5, 7), nn.Linear(5, 7, bias=False))
print(nn.MSELoss(), nn.L1Loss(), nn.CrossEntropyLoss(), nn.BCELoss(), nn.BCEWithLogitsLoss())
print(nn.Identity(), nn.Flatten(), nn.LeakyReLU(0.2), nn.Dropout(0.25))
print(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()]))
print(nn.Sequential())

p = nn.Parameter(torch.tensor([1.0, -2.0]))
print(p)
print(nn.Parameter(torch.tensor([[1.5]]), requires_grad=False))
print(p * 2)
print(p.is_leaf, p.grad_fn)
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError:", e)

lin = nn.Linear(3, 2)
torch.nn.init.zeros_(lin.bias)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
x = torch.tensor([[1.0, 2.0, 3.0]])
out = lin(x)
print(out)
print(out.grad_fn.name())
relu_out = nn.ReLU()(out - 1)
print(relu_out)
print(nn.Softmax(dim=1)(out))
print(nn.Sigmoid()(out), nn.Tanh()(out))

torch.manual_seed(3)
a = nn.Linear(3, 2)
torch.manual_seed(3)
b = nn.Linear(3, 2)
print(torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias))
bound = 1 / 3**0.5
print(bool((a.weight.abs() <= bound).all()), bool((a.bias.abs() <= bound).all()))
