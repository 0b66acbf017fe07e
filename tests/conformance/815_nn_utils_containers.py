# torch.nn.utils (clip_grad_norm_, clip_grad_value_, parameters_to_vector,
# vector_to_parameters) and the containers nn.ModuleDict, nn.ParameterList, nn.ParameterDict:
# values, reprs, registration (parameters, named_parameters, state_dict) and errors.
import torch
import torch.nn as nn
from torch.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    vector_to_parameters,
)


def make_model():
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.7, 0.9 - 0.1 * i, p.numel()).reshape(p.shape))
    return model


def backward(model):
    model.zero_grad()
    inputs = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    loss = (model(inputs) - torch.tensor([[1.0, -1.0], [0.0, 2.0]])).pow(2).sum() * 3
    loss.backward()


model = make_model()
for norm_type in (2.0, 1, 3, float("inf"), "inf", 0.5):
    backward(model)
    total = clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=norm_type)
    print(norm_type, total, total.requires_grad, total.grad_fn)
    print(model[2].bias.grad)
    print(torch.linalg.vector_norm(torch.cat([p.grad.flatten() for p in model.parameters()])))

backward(model)
before = [p.grad.clone() for p in model.parameters()]
total = clip_grad_norm_(model.parameters(), 1000.0)
print(total, all(torch.equal(a, p.grad) for a, p in zip(before, model.parameters())))
print(clip_grad_norm_(model[0].weight, 0.5), model[0].weight.grad)
print(clip_grad_norm_([], 1.0), clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0))
print(nn.utils.clip_grad_norm_(model.parameters(), max_norm=2, norm_type=2.0))
print(torch.nn.utils.clip_grad_norm_(list(model.parameters()), 0.1, 1.0))

p = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
p.grad = torch.tensor([3.0, float("inf"), 4.0])
try:
    clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    clip_grad_norm_([p], 1.0, norm_type="inf", error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(clip_grad_norm_(p, 1.0), p.grad)
p.grad = torch.tensor([float("nan"), 1.0, 1.0])
try:
    clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)

backward(model)
print(clip_grad_value_(model.parameters(), clip_value=0.5))
for q in model.parameters():
    print(q.grad)
q = nn.Parameter(torch.tensor([-3.0, 0.2, 7.0]))
q.grad = torch.tensor([-3.0, 0.2, 7.0])
clip_grad_value_(q, 1)
print(q.grad)
q.grad = torch.tensor([-3.0, 0.2, 7.0])
clip_grad_value_([q], 2.5)
print(q.grad)

vec = parameters_to_vector(model.parameters())
print(vec.shape, vec.grad_fn.name(), vec[:6])
new = torch.arange(float(vec.numel())) / 10
vector_to_parameters(new, model.parameters())
print(model[0].bias, model[2].weight)
print(model[0].weight.requires_grad, model[0].weight.is_leaf, type(model[0].weight).__name__)
print(parameters_to_vector(model.parameters())[-5:])
try:
    vector_to_parameters([1.0, 2.0], model.parameters())
except TypeError as e:
    print("TypeError:", e)

# ModuleDict
md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
print(md)
print(len(md), list(md), list(md.keys()), "lin" in md, "x" in md)
print([type(m).__name__ for m in md.values()], [k for k, _ in md.items()])
md["out"] = nn.Linear(3, 1)
md.update([("drop", nn.Dropout(0.5)), ["act2", nn.Tanh()]])
print(md)
print([n for n, _ in md.named_parameters()], list(md.state_dict().keys()))
print(md.pop("drop"), len(md))
del md["act2"]
print(list(md.keys()), md["act"])
md2 = nn.ModuleDict()
print(md2, len(md2))
md2.update(md)
print(list(md2.keys()))
md2.clear()
print(len(md2), md2)
for bad in (5, [("a", nn.ReLU(), 1)], [5]):
    try:
        nn.ModuleDict(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    nn.ModuleDict({"a": 1})
except TypeError as e:
    print("TypeError:", e)
try:
    nn.ModuleDict({"values": nn.ReLU()})
except KeyError as e:
    print("KeyError:", e)
try:
    md["nope"]
except KeyError as e:
    print("KeyError:", e)

# ParameterList
pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4)])
print(pl)
pl.append(torch.tensor(2.5))
pl.extend([nn.Parameter(torch.ones(1, dtype=torch.float64)), "text"])
pl += [torch.full((2, 2), 3.0)]
print(pl)
print(len(pl), type(pl[1]).__name__, pl[1].requires_grad, pl[-1], pl[4])
print([n for n, _ in pl.named_parameters()], list(pl.state_dict().keys()))
print(pl[1:3], len(pl[::2]))
print([type(v).__name__ for v in pl])
pl[0] = torch.zeros(1)
print(pl[0], pl)
for bad in (10, -10):
    try:
        pl[bad]
    except IndexError as e:
        print("IndexError:", e)
try:
    pl.extend(torch.ones(2))
except TypeError as e:
    print("TypeError:", e)
try:
    pl(1)
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.ParameterList(), nn.ParameterList([torch.ones(3)]))

# ParameterDict: a plain dict is added in sorted key order
pd = nn.ParameterDict({"b": torch.ones(2), "a": nn.Parameter(torch.zeros(3, dtype=torch.float64))})
print(pd)
pd["c"] = torch.arange(6.0).reshape(2, 3)
pd.update([("z", torch.ones(1)), ("y", 3)])
print(pd)
print(list(pd.keys()), len(pd), "a" in pd, pd.get("missing"), pd.get("y"))
print([n for n, _ in pd.named_parameters()], list(pd.state_dict().keys()))
print([k for k, _ in pd.items()], [type(v).__name__ for v in pd.values()], list(pd))
print(pd.pop("z"), list(pd.keys()))
print(pd.popitem(), list(pd.keys()))
print(pd.setdefault("d", torch.ones(2)), pd.setdefault("a").dtype)
merged = pd | nn.ParameterDict({"e": torch.zeros(1)})
print(list(merged.keys()), list(pd.keys()), list(reversed(pd)))
print(list(pd.copy().keys()), list(pd.fromkeys(["k", "j"], torch.ones(1)).keys()))
del pd["b"]
print(pd)
try:
    pd[3]
except TypeError as e:
    print("TypeError:", e)
try:
    pd["missing"]
except AttributeError as e:
    print("AttributeError:", e)
try:
    pd(1)
except RuntimeError as e:
    print("RuntimeError:", e)
pd.clear()
print(pd, len(pd))


# containers inside a model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"first": nn.Linear(2, 2), "second": nn.Linear(2, 1)})
        self.scales = nn.ParameterList([torch.ones(2), torch.full((1,), 0.5)])
        self.extra = nn.ParameterDict({"shift": torch.tensor([0.25])})

    def forward(self, x):
        h = self.layers["first"](x) * self.scales[0]
        return self.layers["second"](h) * self.scales[1] + self.extra["shift"]


torch.manual_seed(0)
net = Net()
with torch.no_grad():
    for i, prm in enumerate(net.parameters()):
        prm.copy_(torch.linspace(-0.3, 0.4 + i / 10, prm.numel()).reshape(prm.shape))
print(net)
print([(n, tuple(prm.shape)) for n, prm in net.named_parameters()])
print(list(net.state_dict().keys()), len(list(net.parameters())))
out = net(torch.tensor([[1.0, -2.0], [0.5, 0.5]]))
out.sum().backward()
print(out, net.scales[0].grad, net.extra["shift"].grad)
print(clip_grad_norm_(net.parameters(), 0.5), net.layers["first"].weight.grad)
print(parameters_to_vector(net.parameters()))
