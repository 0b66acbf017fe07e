# The forward trace names the script's own frames: module level, functions, a module's forward
import warnings

import torch
import torch.nn as nn


def show(message):
    """The warning's text, the script's frames only (PyTorch's own frames inside nn.Module's call
    are left out), each file shown by its name."""
    skip = False
    for line in str(message).split("\n"):
        if line.startswith('  File "'):
            path = line[len('  File "') : line.index('", line')]
            skip = "site-packages" in path
            if not skip:
                print('  File "' + path.split("/")[-1] + line[line.index('", line') :])
        elif line.startswith("    ") and skip:
            continue
        else:
            print(line)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        h = self.lin(x)
        return self.squash(h)

    def squash(self, h):
        return torch.log(h - h.detach())


def run_model(model, x):
    out = model(x)
    return out.sum() * 0


def step(model, x):
    loss = run_model(model, x)
    loss.backward()


torch.manual_seed(0)
model = Block()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        try:
            step(model, torch.ones(2, 3))
        except RuntimeError as e:
            print("RuntimeError:", e)
for w in caught[1:]:
    show(w.message)

# the trace a node keeps: grad_fn.metadata["traceback_"], one entry per frame
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        y = run_model(model, torch.ones(1, 3))
        entries = y.grad_fn.metadata["traceback_"]
print(type(entries).__name__, len(entries))
for entry in entries:
    show(entry.rstrip("\n"))
print(sorted(y.grad_fn.metadata))
