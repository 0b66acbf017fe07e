# Saved-tensor hooks and index ops: the index tensor is packed with the values the formulas
# save, in PyTorch's order, and _saved_index is the unpacked index.
import torch
from torch.autograd.graph import saved_tensors_hooks

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
i = torch.tensor([[0, 0], [1, 0]])
j = torch.tensor([1, 0])
src = torch.tensor([[0.5, 1.5], [2.5, 3.5]], requires_grad=True)
c = torch.tensor([[False, False], [True, True]])
log = []


def nm(t):
    for k, v in (("x", x), ("i", i), ("j", j), ("src", src), ("c", c)):
        if t is v:
            return k
    return "res:" + t.grad_fn.name() if t.grad_fn is not None else "other"


def pack(t):
    log.append("pack " + nm(t))
    return nm(t), t


def unpack(p):
    log.append("unpack " + p[0])
    return p[1]


cases = [
    ("gather", lambda: x.gather(1, i)),
    ("scatter_value", lambda: x.scatter(0, i, 5.0)),
    ("scatter_src", lambda: x.scatter(0, i, src)),
    ("scatter_add", lambda: x.scatter_add(0, i, src)),
    ("scatter_reduce", lambda: x.scatter_reduce(0, i, src, "amax")),
    ("index_select", lambda: x.index_select(0, j)),
    ("index_add", lambda: x.index_add(0, j, src)),
    ("index_copy", lambda: x.index_copy(0, j, src)),
    ("index_fill", lambda: x.index_fill(1, j, 2.0)),
]
for name, f in cases:
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        out = f()
    fw = list(log)
    log.clear()
    out.pow(2).sum().backward()
    print(name, fw, log)
print(x.grad, src.grad)
with saved_tensors_hooks(pack, unpack):
    g = x.gather(1, i)
print(g.grad_fn._saved_index is i, g.grad_fn._saved_index, g.grad_fn._saved_dim)
yd = torch.tensor([3.0, 4.0])
v = torch.tensor([1.0, 2.0], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    z = v * yd
    w = v.sin()
print(z.grad_fn._saved_other is yd, w.grad_fn._saved_self is v)
with saved_tensors_hooks(lambda t: t, lambda t: t * 2):
    z = v * yd
print(z.grad_fn._saved_other, z.grad_fn._saved_other is yd)

# where's condition, masked_fill's mask, embedding's indices
log.clear()
more = [
    ("where", lambda: torch.where(c, x, 0.0)),
    ("where_tensors", lambda: torch.where(c, x, x * 2)),
    ("masked_fill", lambda: x.masked_fill(c, 0.0)),
    ("embedding", lambda: torch.nn.functional.embedding(j, x)),
    ("embedding_module", lambda: torch.nn.Embedding(2, 2)(j)),
]
for name, f in more:
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        out = f()
    fw = list(log)
    log.clear()
    out.pow(2).sum().backward()
    print(name, fw, log)
print(
    torch.where(c, x, 0.0).grad_fn._saved_condition is c,
    x.masked_fill(c, 0.0).grad_fn._saved_mask is c,
)
e = torch.nn.functional.embedding(j, x)
print(e.grad_fn._saved_indices is j, e.grad_fn._saved_indices)
