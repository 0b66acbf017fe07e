# save_on_cpu: a small model trained with its saved tensors kept on the CPU gives the same
# numbers as without.
import torch
from torch import nn
from torch.autograd.graph import save_on_cpu


def train(use_hooks):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    X = torch.randn(8, 3)
    Y = X.sum(dim=1, keepdim=True)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        if use_hooks:
            with save_on_cpu(pin_memory=False):
                loss = nn.functional.mse_loss(model(X), Y)
        else:
            loss = nn.functional.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    return losses, model[0].weight.detach()


with_hooks, w1 = train(True)
without, w2 = train(False)
print(with_hooks)
print(without)
print(torch.equal(w1, w2))
print(w1)

x = torch.tensor([1.0, 2.0], requires_grad=True)
with save_on_cpu():
    y = x.exp()
    z = x.sin()
print(y.grad_fn._saved_result)
print(z.grad_fn._saved_self, z.grad_fn._saved_self is x)
(y + z).sum().backward()
print(x.grad)
