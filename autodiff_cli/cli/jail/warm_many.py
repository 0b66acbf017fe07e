"""Before `autodiff run` forks a child for each of many scripts: what each child would
otherwise redo, in its own copy of the parent's memory, is done once in the parent."""

from __future__ import annotations

import gc
import io

import autodiff_cli.engine as engine
from autodiff_cli import lazy_imports
from autodiff_cli.cli.jail.warm_up import element_cap_lifted
from autodiff_cli.lang import run_source

# What most scripts do (imports, ops, backward, an optimizer step, printing): run once in the
# parent by `warm_for_many`. Warning-free; every script starts from the engine's defaults again.
_MANY_SOURCE = """\
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
w = torch.ones(2, 3, dtype=torch.float64).float().requires_grad_()
y = (x.exp() * 2 - x.sin() / 3 + x ** 2).tanh().sigmoid().relu()
z = (y @ w).mean(dim=0).sum() + x.abs().max() + x.pow(2).sqrt().log1p().mean()
z.backward()
print(x.grad, w.grad, z.grad_fn, z.grad_fn.next_functions, z.item(), x.shape, x.dtype)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
opt = optim.SGD(model.parameters(), lr=0.1)
loss = F.mse_loss(model(x), torch.zeros(2, 1))
opt.zero_grad()
loss.backward()
opt.step()
print(model, loss, [p.grad for p in model.parameters()])
with torch.no_grad():
    print(torch.arange(6).reshape(2, 3).t()[0], torch.zeros(3).view(-1, 1).squeeze(), math.pi)


class Net(nn.Module):
    def __init__(self, size=2):
        super().__init__()
        self.fc = nn.Linear(size, 1)

    def forward(self, inputs):
        return torch.sigmoid(self.fc(inputs))


def step(net, data, target=None):
    out = net(data)
    return out if target is None else F.binary_cross_entropy(out, target)


net, total = Net(), 0.0
for i, row in enumerate([x, x * 2]):
    if i % 2 == 0 and not total:
        total += step(net, row, torch.ones(2, 1)).item()
    elif i > 0:
        total -= step(net, row).sum().item()
    else:
        pass
while total > 1e9:
    total /= 2
squares = {k: v for k, v in zip("ab", [i * i for i in range(2)] + [len(str(total))])}
print(f"{total:.4f} {squares!r} {x.detach().numpy().tolist()}", sep="")
"""


def warm_for_many() -> None:
    """Before forking many children (`autodiff run` over several scripts): what each of them
    would otherwise redo, in its own copy of this process's memory, is done once here by
    running a typical script: the rows of the parse table it reaches decoded, the engine's
    lazily built parts (grad_fn classes, the vetted exports of `torch` and its submodules...)
    made: ~20 ms here, ~3.5 ms less in each child (of ~25 for a conformance script), so it
    pays from about 6 children on (`run.command.MANY_CHILDREN`). (Decoding the whole parse
    table as well: ~35 ms for ~1 ms a child, not done.) `resource`, which each child's lock-down
    sets its rlimits with, is imported here too: ~1.2 ms of each child's CPU (a dlopen)."""
    lazy_imports.load("resource")
    try:
        with element_cap_lifted():
            run_source(_MANY_SOURCE, "<warm-up>", stdout=io.StringIO())
    finally:
        engine.reset_global_state()
    gc.freeze()  # what this process holds now is never traversed by a child's collection,
    # which would write every object's header: copies of its pages (~2 ms less per child)
