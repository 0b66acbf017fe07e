# Per-sample gradients, in the style of PyTorch's torch.func tutorial.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)


model = SimpleMLP()
with torch.no_grad():  # fixed weights, so the numbers do not depend on the random init
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (0.3 + 0.2 * i))

data = torch.tensor(
    [[0.1, 0.2, 0.3, 0.4], [-1.0, 0.5, 0.0, 2.0], [0.3, -0.3, 0.9, -0.9], [1.0, 1.0, 1.0, 1.0]]
)
targets = torch.tensor([0, 1, 1, 0])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for name, g in ft_per_sample_grads.items():
    print(name, tuple(g.shape))
    print(g)


# the same gradients, one sample at a time with autograd
def compute_grad(sample, target):
    model.zero_grad()
    loss = F.cross_entropy(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))


per_sample = [compute_grad(data[i], targets[i]) for i in range(len(data))]
per_sample = [torch.stack(shards) for shards in zip(*per_sample)]
for per_sample_grad, ft_per_sample_grad in zip(per_sample, ft_per_sample_grads.values()):
    print(torch.allclose(per_sample_grad, ft_per_sample_grad, atol=1e-6, rtol=1e-6))

# their mean is the batch gradient
loss = F.cross_entropy(model(data), targets)
batch_grads = torch.autograd.grad(loss, list(model.parameters()))
for g, (name, ps) in zip(batch_grads, ft_per_sample_grads.items()):
    print(name, torch.allclose(g, ps.mean(0), atol=1e-6))
print(model.fc1.weight.grad)
