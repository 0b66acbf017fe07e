# Model ensembling with torch.func, in the style of PyTorch's tutorial.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


num_models = 5
data = torch.randn(10, 8)
minibatches = data.reshape(num_models, 2, 8)
models = [SimpleMLP() for _ in range(num_models)]
minibatch = data[:2]
predictions_diff_minibatch_loop = [
    model(minibatch) for model, minibatch in zip(models, minibatches)
]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
base_model = SimpleMLP()  # the tutorial takes a copy on the 'meta' device


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([(k, tuple(v.shape)) for k, v in params.items()])
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-6))
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-6))
print(predictions2_vmap.detach()[:, 0])

# gradients flow back to the stacked parameters
predictions2_vmap.pow(2).mean().backward()
print(params["fc2.bias"].grad)
