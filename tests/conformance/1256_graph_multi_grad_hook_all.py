# register_multi_grad_hook (mode="all"): one call per backward pass with every gradient, None
# for tensors the pass did not reach.
import torch
from torch.autograd.graph import register_multi_grad_hook

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0], requires_grad=True)


def show(grads):
    print("all:", [None if g is None else [round(v, 4) for v in g.tolist()] for g in grads])


handle = register_multi_grad_hook((a, b, c), show)
print(type(handle).__name__)
(a * b).sum().backward()
(a * b * c).sum().backward()
(c * 2).sum().backward()
handle.remove()
(a * b).sum().backward()
print("removed")

# non-leaf tensors
x = torch.tensor([0.5, 1.0], requires_grad=True)
y = x * 2
z = y.exp()
handle = register_multi_grad_hook((y, z), show)
(z * z).sum().backward()
handle.remove()

# several backward calls through one graph
p = torch.tensor([1.0, -1.0], requires_grad=True)
q = torch.tensor([2.0, 3.0], requires_grad=True)
handle = register_multi_grad_hook([p, q], show)
out = (p * q).pow(2).sum()
out.backward(retain_graph=True)
out.backward(inputs=[p])
handle.remove()

# the hook's return value is ignored
handle = register_multi_grad_hook((a, b), lambda grads: grads)
(a * b).sum().backward()
print(a.grad, b.grad)
handle.remove()

try:
    register_multi_grad_hook((a, b), show, mode="some")
except ValueError as err:
    print("ValueError:", err)
