# What out= must be: a Tensor (a tuple of two for values and indices); functions without out=
# refuse it.
import torch

x = torch.tensor([3.0, 1.0, 2.0])
for label, call in [
    ("exp list", lambda: torch.exp(x, out=[torch.empty(0)])),
    ("add str", lambda: torch.add(x, x, out="buffer")),
    ("sum tuple", lambda: torch.sum(x, 0, out=(torch.empty(0),))),
    ("topk tensor", lambda: torch.topk(x, 2, out=torch.empty(0))),
    ("kthvalue tensor", lambda: torch.kthvalue(x, 2, out=torch.empty(0))),
    ("sort one", lambda: torch.sort(x, out=(torch.empty(0),))),
    (
        "max three",
        lambda: torch.max(
            x, 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long), torch.empty(0))
        ),
    ),
    ("clone", lambda: torch.clone(x, out=torch.empty(0))),
    ("flip", lambda: torch.flip(x, [0], out=torch.empty(0))),
    ("zeros_like", lambda: torch.zeros_like(x, out=torch.empty(0))),
    ("relu", lambda: torch.relu(x, out=torch.empty(0))),
    ("isnan", lambda: torch.isnan(x, out=torch.empty(0))),
    ("sum without dim", lambda: torch.sum(x, out=torch.empty(0))),
    ("prod without dim", lambda: torch.prod(x, out=torch.empty(0))),
    ("median without dim", lambda: torch.median(x, out=torch.empty(0))),
    ("mean without dim", lambda: torch.mean(x, out=torch.empty(0))),
    ("max without dim", lambda: torch.max(x, out=torch.empty(0))),
]:
    try:
        call()
        print(label, "ok")
    except TypeError as error:
        print(label, "TypeError:", str(error))

base = torch.ones(1)
try:
    torch.add(torch.ones(3), 1, out=base.expand(3))
except RuntimeError as error:
    print("expanded RuntimeError:", error)
print(base)

# cat, stack, index_select and gather refuse an out that is one of their inputs; element-wise
# functions and scans write over their input
for label, call in [
    ("cat", lambda t: torch.cat([t, t], out=t)),
    ("stack", lambda t: torch.stack([t, t], out=t)),
    ("index_select", lambda t: torch.index_select(t, 0, torch.tensor([1, 0]), out=t)),
    ("gather", lambda t: torch.gather(t, 0, torch.tensor([1, 0]), out=t)),
    ("add", lambda t: torch.add(t, t.flip(0), out=t)),
    ("cumsum", lambda t: torch.cumsum(t, 0, out=t)),
]:
    t = torch.tensor([1.0, 2.0])
    try:
        print(label, call(t), t)
    except RuntimeError as error:
        print(label, "RuntimeError:", error)
