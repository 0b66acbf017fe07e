# functorch's per-sample-gradient example (functorch README, "Per-sample-gradients" tutorial
# before torch.func): make_functional, then vmap(grad(loss)) over a batch, compared with a loop.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from functorch import grad, make_functional, vmap

warnings.simplefilter("ignore", FutureWarning)
torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = SimpleMLP()
data = torch.randn(5, 4)
targets = torch.tensor([0, 2, 1, 1, 0])
fmodel, params = make_functional(model)
print(fmodel)
print(len(params), [p.shape for p in params], params[0].requires_grad)
print(params[0] is model.fc1.weight, torch.equal(params[0], model.fc1.weight))
print(fmodel.stateless_model.fc1.weight)


def compute_loss(params, sample, target):
    batch = sample.unsqueeze(0)
    predictions = fmodel(params, batch)
    return F.cross_entropy(predictions, target.unsqueeze(0))


per_sample = vmap(grad(compute_loss), in_dims=(None, 0, 0))(params, data, targets)
print([g.shape for g in per_sample])
loop = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(data[i : i + 1]), targets[i : i + 1]).backward()
    loop.append(model.fc2.bias.grad.clone())
print(per_sample[3].detach())
print(torch.stack(loop))
print(torch.allclose(per_sample[3], torch.stack(loop), atol=1e-6))
out = fmodel(params, data)
print(out.grad_fn, out.sum())
fmodel2, frozen = make_functional(model, disable_autograd_tracking=True)
print([p.requires_grad for p in frozen])
try:
    make_functional(nn.BatchNorm1d(3))
except RuntimeError as e:
    print("RuntimeError:", e)
