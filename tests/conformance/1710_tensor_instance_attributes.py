# Attributes set on tensors: tags on parameters that choose weight decay per group (as
# training recipes do), and the classic mistake `y.retain_grad = True` (an attribute over the
# method, allowed by PyTorch) that leaves y.grad unset, fixed by calling y.retain_grad()
import torch
from torch import nn

torch.manual_seed(6)
model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 1))
for name, p in model.named_parameters():
    p.no_decay = p.ndim < 2 or name.startswith("1.")
    p.tag = name
decay = [p.tag for p in model.parameters() if not p.no_decay]
no_decay = [p.tag for p in model.parameters() if getattr(p, "no_decay", False)]
print(decay, no_decay)
groups = [
    {"params": [p for p in model.parameters() if not p.no_decay], "weight_decay": 0.1},
    {"params": [p for p in model.parameters() if p.no_decay], "weight_decay": 0.0},
]
opt = torch.optim.AdamW(groups, lr=0.01)
x = torch.randn(5, 3)
loss = model(x).pow(2).mean()
loss.backward()
opt.step()
print(round(loss.item(), 6), [len(g["params"]) for g in opt.param_groups])

a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a * 3
y.retain_grad = True
print(y.retain_grad, y.requires_grad)
y.sum().backward()
print(y.grad is None, a.grad)
del y.retain_grad
y2 = a * 3
y2.retain_grad()
y2.sum().backward()
print(y2.grad, a.grad)
t = torch.ones(2)
t.info = {"source": "ones"}
t.info["n"] = 2
print(t.info, hasattr(t, "info"), hasattr(torch.ones(2), "info"))
del t.info
print(hasattr(t, "info"))
try:
    del t.info
except AttributeError as e:
    print("AttributeError:", e)
try:
    t.shape = (1, 2)
except AttributeError:
    print("AttributeError")
