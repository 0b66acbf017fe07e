# Walking a tree of modules with recursive generators and `yield from`.
import torch
from torch import nn


def walk(module, prefix=""):
    yield prefix or "<root>", module
    for name, child in module.named_children():
        yield from walk(child, f"{prefix}.{name}" if prefix else name)


def leaf_parameters(module):
    for _, sub in walk(module):
        if not list(sub.children()):
            yield from sub.parameters(recurse=False)


torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(3, 4),
    nn.Sequential(nn.Tanh(), nn.Linear(4, 2)),
    nn.Linear(2, 1),
)
for name, sub in walk(model):
    print(name, type(sub).__name__)
print(sum(p.numel() for p in leaf_parameters(model)))
print([tuple(p.shape) for p in leaf_parameters(model)])

with torch.no_grad():
    for p in leaf_parameters(model):
        p.fill_(0.1)
out = model(torch.ones(2, 3)).sum()
out.backward()
print(out)
print([round(p.grad.abs().sum().item(), 6) for p in leaf_parameters(model)])
