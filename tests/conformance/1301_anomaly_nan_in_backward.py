# A NaN in backward under detect_anomaly: PyTorch's error, and the warning with the forward trace
import warnings

import torch


def show(message):
    """The warning's text, each file shown by its name only (paths differ between machines)."""
    lines = str(message).split("\n")
    for line in lines:
        if line.startswith('  File "'):
            path = line[len('  File "') : line.index('", line')]
            print('  File "' + path.split("/")[-1] + line[line.index('", line') :])
        else:
            print(line)


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        z = torch.log(x - 1.0)
        loss = (z * 0).sum()
        try:
            loss.backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
print("grad after the error:", x.grad)
print(len(caught), "warnings")
for w in caught:
    print("--", w.category.__name__)
    show(w.message)

# sqrt at 0 times 0: inf * 0
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        a = torch.tensor([0.0, 4.0], requires_grad=True)
        b = torch.sqrt(a)
        c = b * torch.tensor([0.0, 1.0])
        try:
            c.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
for w in caught[1:]:
    show(w.message)

# a finite backward runs as usual, and gives the same gradients
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        out = torch.tanh(w @ torch.tensor([1.0, 2.0])).pow(2).sum()
        out.backward()
print(out, w.grad)
print(len(caught), "warning")
