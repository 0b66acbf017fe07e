# The deprecated register_backward_hook: the gradients of the module's last node only.
import torch
import torch.nn as nn


def shapes(grads):
    return [None if g is None else tuple(g.shape) for g in grads]


def legacy(module, grad_input, grad_output):
    print("legacy", type(module).__name__, shapes(grad_input), shapes(grad_output))


lin = nn.Linear(3, 2)
lin.register_backward_hook(legacy)
xr = torch.ones(4, 3, requires_grad=True)
y = lin(xr)
print(y.grad_fn)
y.sum().backward()
lin(torch.ones(4, 3)).sum().backward()
lin(torch.ones(3)).sum().backward()

nobias = nn.Linear(3, 2, bias=False)
nobias.register_backward_hook(legacy)
nobias(xr).sum().backward()

relu = nn.ReLU()
relu.register_backward_hook(legacy)
relu(xr - 0.5).sum().backward()

seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
seq.register_backward_hook(legacy)
seq(xr).sum().backward()


def replace(module, grad_input, grad_output):
    print("grad_input", [None if g is None else g.shape for g in grad_input])
    return tuple(None if g is None else torch.full_like(g, 7.0) for g in grad_input)


l2 = nn.Linear(2, 2)
l2.register_backward_hook(replace)
w = torch.ones(1, 2, requires_grad=True)
l2(w).sum().backward()
print(w.grad, l2.weight.grad, l2.bias.grad)


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


l3 = nn.Linear(2, 2)
l3.register_backward_hook(lambda m, gi, go: 5)
attempt("returns an int", lambda: l3(torch.ones(1, 2)).sum().backward())
l4 = nn.Linear(2, 2)
l4.register_backward_hook(lambda m, gi, go: (gi[0],))
attempt("returns too few", lambda: l4(torch.ones(1, 2)).sum().backward())

# mixing both kinds on one module
l5 = nn.Linear(2, 2)
l5.register_backward_hook(legacy)
attempt("full after legacy", lambda: l5.register_full_backward_hook(legacy))
attempt("pre after legacy", lambda: type(l5.register_full_backward_pre_hook(legacy)).__name__)
l6 = nn.Linear(2, 2)
h = l6.register_full_backward_hook(legacy)
h.remove()
attempt("legacy after a removed full hook", lambda: l6.register_backward_hook(legacy))
l7 = nn.Linear(2, 2)
h = l7.register_backward_hook(legacy)
h.remove()
attempt("full after a removed legacy hook", lambda: l7.register_full_backward_hook(legacy))
