# sort, topk, max(dim)...: saved-tensor hooks pack the indices they output, as PyTorch.
import torch
from torch.autograd.graph import saved_tensors_hooks

x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]], requires_grad=True)
cases = [
    ("sort", lambda: x.sort(1)),
    ("topk", lambda: x.topk(2)),
    ("max_dim", lambda: x.max(1)),
    ("min_dim", lambda: x.min(0)),
    ("kthvalue", lambda: x.kthvalue(2)),
    ("median_dim", lambda: x.median(1)),
    ("msort", lambda: torch.msort(x)),
]
log = []


def pack(v):
    log.append(("pack", tuple(v.shape), str(v.dtype)))
    return v


def unpack(v):
    log.append("unpack")
    return v


for name, f in cases:
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        out = f()
    o = out[0] if isinstance(out, tuple) else out
    idx = out[1] if isinstance(out, tuple) else None
    if idx is not None:
        log.append(("same indices", torch.equal(o.grad_fn._saved_indices, idx)))
    o.pow(2).sum().backward()
    print(name, o.grad_fn.name(), log)
print(x.grad)
