# The model-ensembling tutorial as written for functorch: combine_state_for_ensemble stacks the
# models' parameters, then vmap runs every model on the same or on different minibatches.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from functorch import combine_state_for_ensemble, make_functional_with_buffers, vmap

warnings.simplefilter("ignore", FutureWarning)
torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        x = x.flatten(1)
        return self.fc2(F.relu(self.fc1(x)))


num_models = 4
data = torch.randn(3, 5, 6)
minibatch = data[0]
models = [SimpleMLP() for _ in range(num_models)]
predictions_loop = [model(minibatch) for model in models]

fmodel, params, buffers = combine_state_for_ensemble(models)
print(fmodel)
print([p.size(0) for p in params], [tuple(p.shape) for p in params], buffers)
print(params[0].requires_grad, params[0].is_leaf)
[p.requires_grad_() for p in params]
predictions_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions_vmap.shape)
print(torch.allclose(predictions_vmap, torch.stack(predictions_loop), atol=1e-6))
print(predictions_vmap[2])
predictions_vmap.pow(2).sum().backward()
print(params[3].grad[1])
minibatches = torch.randn(num_models, 5, 6)
different = vmap(fmodel)(params, buffers, minibatches)
print(different.shape, torch.allclose(different[1], models[1](minibatches[1]), atol=1e-6))
f2, p2, b2 = make_functional_with_buffers(nn.BatchNorm1d(3))
print(f2, [t.shape for t in p2], b2)
for bad in ([], [SimpleMLP(), SimpleMLP().eval()], [SimpleMLP(), nn.Linear(6, 2)]):
    try:
        combine_state_for_ensemble(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
