# Module backward hooks printing gradients, in the style of the hooks tutorials.
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.01, -0.02]))


def show(name, grads):
    return [None if g is None else g.tolist() for g in grads]


def full_hook(module, grad_input, grad_output):
    print(
        "full hook:", type(module).__name__, type(grad_input).__name__, type(grad_output).__name__
    )
    print("  grad_input ", show("in", grad_input))
    print("  grad_output", show("out", grad_output))


def pre_hook(module, grad_output):
    print("pre hook:", show("out", grad_output))


h1 = lin.register_full_backward_hook(full_hook)
h2 = lin.register_full_backward_pre_hook(pre_hook)

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], requires_grad=True)
y = lin(x)
print(y.grad_fn)
print(y.grad_fn.name(), y.grad_fn.next_functions)
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print("x.grad", x.grad)
print("weight.grad", lin.weight.grad)

# no input requires grad: the hook fires with grad_input (None,)
z = lin(torch.ones(1, 3))
z.sum().backward()

# order against tensor hooks
x.grad = None
out = lin(x)
out.register_hook(lambda g: print("tensor hook on the output"))
x.register_hook(lambda g: print("tensor hook on the input"))
out.sum().backward()

h1.remove()
h2.remove()
y = lin(x)
print(y.grad_fn)
y.sum().backward()
print("no hook ran")
