# Saved-tensor hooks and the classification losses: nll_loss packs its input, the target, the
# class weights and the total weight it computes, in PyTorch's order; what they show.
import torch
import torch.nn.functional as F
from torch.autograd.graph import saved_tensors_hooks

x = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]], requires_grad=True)
t = torch.tensor([1, 2])
w = torch.tensor([1.0, 2.0, 3.0])
log = []


def nm(v):
    for k, o in (("x", x), ("t", t), ("w", w)):
        if v is o:
            return k
    if v.grad_fn is not None:
        return "res:" + v.grad_fn.name()
    return "other" + str(tuple(v.shape))


def pack(v):
    log.append("pack " + nm(v))
    return nm(v), v


def unpack(p):
    log.append("unpack " + p[0])
    return p[1]


for name, f in [
    ("nll", lambda: F.nll_loss(x, t)),
    ("nll_sum", lambda: F.nll_loss(x, t, reduction="sum")),
    ("nll_weight", lambda: F.nll_loss(x, t, weight=w)),
    ("cross_entropy", lambda: F.cross_entropy(x, t)),
    ("module", lambda: torch.nn.CrossEntropyLoss()(x, t)),
]:
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        loss = f()
    fw = list(log)
    log.clear()
    loss.backward()
    print(name, fw, log)
for red in ["mean", "sum", "none"]:
    fn = F.nll_loss(x, t, reduction=red).grad_fn
    print(red, fn.name(), fn._saved_total_weight, fn._saved_target is t)
fn = F.nll_loss(x, t, weight=w).grad_fn
print(fn._saved_total_weight, fn._saved_weight is w)
fn = F.nll_loss(x, torch.tensor([1, -100])).grad_fn
print(fn._saved_total_weight)
fn = F.cross_entropy(x, t).grad_fn
print(fn.name(), fn._saved_target is t, fn._saved_total_weight)
fn = F.nll_loss(x[0], t[0]).grad_fn
print(fn.name(), fn._saved_total_weight)
print(x.grad)

# how much a small classifier keeps for backward, as the memory tutorials measure it
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
inputs = torch.randn(8, 4)
labels = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
sizes = []


def measure(v):
    sizes.append((tuple(v.shape), v.numel() * v.element_size()))
    return v


with saved_tensors_hooks(measure, lambda v: v):
    loss = F.cross_entropy(model(inputs), labels)
print(len(sizes), sum(b for _, b in sizes))
print(sizes)
loss.backward()
print(model[0].bias.grad)
