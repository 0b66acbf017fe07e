# Anomaly mode with autograd.grad, retain_graph, and hooks: which node the warning names
import warnings

import torch


def show(message):
    for line in str(message).split("\n"):
        if line.startswith('  File "'):
            path = line[len('  File "') : line.index('", line')]
            print('  File "' + path.split("/")[-1] + line[line.index('", line') :])
        else:
            print(line)


def record(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            print("result:", fn())
        except (RuntimeError, ValueError) as e:
            print(type(e).__name__ + ":", e)
    for w in caught:
        show(w.message)


torch.autograd.set_detect_anomaly(True)

x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
root = torch.sqrt(x)
loss = (root * torch.tensor([0.0, 1.0, 1.0])).sum()
record(lambda: torch.autograd.grad(loss, x, retain_graph=True))
record(lambda: torch.autograd.grad(loss, x, grad_outputs=torch.tensor(0.0), retain_graph=True))

# the NaN comes from a hook on an intermediate tensor: the node it feeds is named
h = x * 3
handle = h.register_hook(lambda g: g * float("nan"))
record(lambda: torch.autograd.grad((h * 2).sum(), x))
handle.remove()


# a hook that raises: the warning names the node whose hook failed
def failing(g):
    raise ValueError("hook failed")


y = x.exp()
z = y * 2
z.register_hook(failing)
record(lambda: z.sum().backward())

# backward(inputs=...) and a finite graph: no warnings beyond the first
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * b).pow(2).sum()
record(lambda: torch.autograd.backward(out, inputs=[a]))
print(a.grad, b.grad)
torch.autograd.set_detect_anomaly(False)
