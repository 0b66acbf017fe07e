# create_graph under anomaly mode: a node made by the backward pass names the node that made it
import warnings

import torch


def show(message):
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


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        a = torch.tensor([0.0, 1.0], requires_grad=True)
        b = torch.sqrt(a)
        (g,) = torch.autograd.grad(b.sum(), a, create_graph=True)
        print(g)
        print(sorted(g.grad_fn.metadata))
        print(g.grad_fn.metadata["parent_"].name())
        try:
            (g * 0).sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
print(len(caught), "warnings")
for w in caught[2:]:
    show(w.message)

# a finite second derivative runs as usual
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (dx,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
        (ddx,) = torch.autograd.grad(dx.sum(), x)
print(dx, ddx)
