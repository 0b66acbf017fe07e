# Nested saved_tensors_hooks (the innermost packs), unpack on every read: retain_graph,
# grad_fn._saved_* and create_graph.
import torch
from torch.autograd.graph import saved_tensors_hooks

x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
log = []


def hooks(name):
    def pack(t):
        log.append(name + " pack " + str(t.shape))
        return t

    def unpack(t):
        log.append(name + " unpack")
        return t

    return pack, unpack


with saved_tensors_hooks(*hooks("outer")):
    a = x.sin()
    with saved_tensors_hooks(*hooks("inner")):
        b = a.cos()
    c = b * a
print(log)
log.clear()
c.sum().backward(retain_graph=True)
print(log, x.grad)
log.clear()
c.sum().backward()
print(log, x.grad)
log.clear()

# reading a saved value unpacks it; the unpacked tensor is a new tensor with the original's
# autograd metadata
with saved_tensors_hooks(*hooks("h")):
    s = x.sin()
    e = x.exp()
print(log)
log.clear()
saved = s.grad_fn._saved_self
print(saved, saved is x, saved.requires_grad, saved.grad_fn)
result = e.grad_fn._saved_result
print(result, result is e, result.grad_fn.name())
print(log)
log.clear()

# outside any hooks: PyTorch gives the input itself, and a new tensor for a result
p = x.sin()
q = x.exp()
print(p.grad_fn._saved_self is x, q.grad_fn._saved_result is q)
print(q.grad_fn._saved_result)

# create_graph: the first backward's nodes are packed too while the hooks are on
x.grad = None
with saved_tensors_hooks(*hooks("g")):
    y = (x**3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
print(log)
log.clear()
g.sum().backward()
print(log, x.grad)
