# Forward hooks that store activations in a dict keyed by id(module) (feature-extraction blog
# pattern), names found again through getattr on the model
import torch
from torch import nn

torch.manual_seed(7)
model = nn.Sequential()
model.add_module("conv_like", nn.Linear(4, 6))
model.add_module("act", nn.ReLU())
model.add_module("head", nn.Linear(6, 2))
activations = {}
names = {id(m): name for name, m in model.named_children()}


def save(module, inputs, output):
    activations[id(module)] = output


handles = [getattr(model, name).register_forward_hook(save) for name in ("conv_like", "head")]
out = model(torch.randn(3, 4))
print(sorted(names[key] for key in activations))
for key, value in activations.items():
    print(names[key], tuple(value.shape), value.grad_fn)
print(id(activations[id(model.head)]) == id(out))
out.sum().backward()
print(model.head.bias.grad, id(model.head) in names, id(model) in names)
for h in handles:
    h.remove()
activations.clear()
model(torch.randn(1, 4))
print(activations)
