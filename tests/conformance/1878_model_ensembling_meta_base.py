# PyTorch's "Model ensembling" tutorial (torch.func): stack_module_state, a "stateless" copy of one
# model moved to the meta device, functional_call inside vmap, with the same and with different
# minibatches per model, compared with running the models one by one.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import vmap
from torch.func import functional_call, stack_module_state

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 12)
        self.fc2 = nn.Linear(12, 8)
        self.fc3 = nn.Linear(8, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


num_models = 5
data = torch.randn(10, 3, 4, 4)
minibatches = data[:num_models, :2].reshape(num_models, 2, 16)
minibatch = minibatches[0]
models = [SimpleMLP() for _ in range(num_models)]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)

base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")
print(base_model.fc1.weight, next(base_model.parameters()).device)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions1_vmap.shape, predictions1_vmap.device)
print(torch.allclose(predictions1_vmap, torch.stack(predictions2), atol=1e-6, rtol=1e-6))
print(predictions1_vmap[1])
predictions_diff = vmap(fmodel)(params, buffers, minibatches)
expected = torch.stack([models[i](minibatches[i]) for i in range(num_models)])
print(torch.allclose(predictions_diff, expected, atol=1e-6, rtol=1e-6))
predictions_diff.square().mean().backward()
print(params["fc3.bias"].grad)
print(base_model.fc3.bias, base_model.fc3.bias.grad)
try:
    base_model(minibatch)
except RuntimeError as e:
    print("RuntimeError:", e)
