# Anomaly mode with custom autograd Functions: traces of their nodes, NaN in a user's backward,
# an error raised by a user's backward
import warnings

import torch


def show(message):
    """The warning's text, the script's frames only (PyTorch's own frame inside Function.apply
    is left out), each file shown by its name."""
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


class SafeLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.log()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Broken(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        raise ValueError("backward is broken")


def model(x):
    return SafeLog.apply(x) * 0


x = torch.tensor([0.0, 1.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        y = model(x).sum()
        print(type(y.grad_fn.next_functions[0][0].next_functions[0][0]).__name__)
        try:
            y.backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
        z = Broken.apply(x).sum()
        try:
            z.backward()
        except ValueError as e:
            print("ValueError:", e)
for w in caught[1:]:
    show(w.message)
