# x[idx]: IndexBackward0's _saved_indices (None for whole dimensions, the index tensors given)
# and what saved-tensor hooks pack for it.
import torch
from torch.autograd.graph import saved_tensors_hooks

x = torch.arange(12.0).view(3, 4).requires_grad_()
t = torch.tensor([0, 2])
u = torch.tensor([1, 3])
m = x > 5
print(x[t].grad_fn._saved_indices[0] is t, x[t, u].grad_fn._saved_indices[1] is u)
print(x[m].grad_fn._saved_indices[0] is m, x[:, u].grad_fn._saved_indices)
print(x[1:, t[:1]].grad_fn._saved_indices, x[1:, t[:1]].grad_fn.name())
print(x[..., u].grad_fn._saved_indices)
print(x[t, 1:].grad_fn._saved_indices, x[t, 1:].grad_fn.name())
print(x[None, t].grad_fn._saved_indices)
print(x[t.int()].grad_fn._saved_indices)
print(x[[0, 2]].grad_fn._saved_indices)
log = []


def pack(v):
    log.append(("pack", tuple(v.shape), v is t or v is u or v is m))
    return v


def unpack(v):
    log.append(("unpack", tuple(v.shape)))
    return v


cases = (
    lambda: x[t],
    lambda: x[t, u],
    lambda: x[:, u],
    lambda: x[m],
    lambda: x[[0, 2]],
    lambda: x[1],
)
for f in cases:
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        out = f()
    fw = list(log)
    log.clear()
    out.sum().backward()
    print(fw, log)
with saved_tensors_hooks(lambda v: v, lambda v: v):
    y = x[t, u]
print(y.grad_fn._saved_indices, y.grad_fn._saved_indices[0] is t)
print(x.grad)
