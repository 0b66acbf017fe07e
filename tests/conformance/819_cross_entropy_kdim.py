# nll_loss and cross_entropy on K-dimensional inputs (N, C, d1, ...): segmentation-style losses
# (NllLoss2DBackward0), reductions, class weights, ignore_index, label smoothing, gradients and
# the errors for targets of the wrong shape or type.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2.0, 2.5, 24).reshape(2, 3, 2, 2).requires_grad_()
t = torch.tensor([[[2, 0], [1, 2]], [[0, 0], [2, 1]]])
w = torch.tensor([0.5, 2.0, 1.25])

for reduction in ("mean", "sum", "none"):
    loss = F.cross_entropy(x, t, reduction=reduction)
    print(reduction, loss, loss.grad_fn.name())
    (grad,) = torch.autograd.grad(loss.sum(), x)
    print(grad)

loss = F.cross_entropy(x, t, weight=w)
print(loss.item(), loss.grad_fn)
loss.backward()
print(x.grad)
x.grad = None

loss = F.cross_entropy(x, t, ignore_index=2)
print(loss.item())
loss = F.cross_entropy(x, t, weight=w, ignore_index=0, reduction="none")
print(loss)
loss = F.cross_entropy(x, t, label_smoothing=0.1)
print(loss.item(), loss.grad_fn.name())
(grad,) = torch.autograd.grad(loss, x)
print(grad)
loss = F.cross_entropy(x, t, weight=w, label_smoothing=0.25, ignore_index=1)
print(loss.item())
print(F.cross_entropy(x, t, label_smoothing=0.2, reduction="none"))

logp = F.log_softmax(x, dim=1)
for reduction in ("mean", "sum", "none"):
    loss = F.nll_loss(logp, t, weight=w, reduction=reduction)
    print("nll", reduction, loss, loss.grad_fn.name())

# 3-d input (N, C, L) and 5-d input: viewed as (N, C, 1, -1)
seq = torch.linspace(-1.0, 1.0, 18).reshape(2, 3, 3).requires_grad_()
st = torch.tensor([[0, 1, 2], [2, 2, 0]])
loss = F.cross_entropy(seq, st)
print(loss.item(), loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
loss.backward()
print(seq.grad)
none = F.nll_loss(seq, st, reduction="none")
print(none, none.grad_fn.name())
vol = torch.arange(24.0).reshape(2, 3, 2, 1, 2).cos().requires_grad_()
vt = torch.tensor([[[[1, 2]], [[0, 0]]], [[[2, 1]], [[1, 0]]]])
loss = F.cross_entropy(vol, vt, weight=w, reduction="sum")
print(loss, loss.grad_fn.name())
loss.backward()
print(vol.grad)
print(F.cross_entropy(vol, vt, reduction="none").shape)

# the module form, a double backward and float64
criterion = nn.CrossEntropyLoss(weight=w, ignore_index=1)
print(criterion, criterion(x, t))
print(nn.NLLLoss(reduction="sum")(logp, t))
x64 = x.detach().double().requires_grad_()
loss = F.nll_loss(x64, t, reduction="sum")
(g,) = torch.autograd.grad(loss, x64, create_graph=True)
print(g.grad_fn.name(), g.dtype)
v = torch.ones(2, 2, 2, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(F.nll_loss(x64, t, reduction="none"), x64, v, create_graph=True)
print(g.grad_fn.name())
print(torch.autograd.grad(g.sum(), v)[0])

# a segmentation step
scores = torch.zeros(2, 3, 2, 2, requires_grad=True)
optimizer = torch.optim.SGD([scores], lr=1.0)
for step in range(3):
    optimizer.zero_grad()
    loss = F.cross_entropy(scores, t)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 6))

# errors
bad = [
    ("target batch", lambda: F.cross_entropy(x, torch.zeros(3, 2, 2, dtype=torch.long))),
    ("target spatial", lambda: F.cross_entropy(x, torch.zeros(2, 2, 3, dtype=torch.long))),
    ("target 1-d", lambda: F.nll_loss(x, torch.zeros(2, dtype=torch.long))),
    ("target 3-d for 3-d", lambda: F.nll_loss(seq, torch.zeros(2, 3, 1, dtype=torch.long))),
    ("target shape 3-d", lambda: F.nll_loss(seq, torch.zeros(2, 4, dtype=torch.long))),
    ("target float", lambda: F.nll_loss(x, t.float())),
    ("target int32", lambda: F.nll_loss(x, t.int())),
    ("target out of range", lambda: F.nll_loss(x, t + 1)),
    ("negative target", lambda: F.nll_loss(x, t - 1, reduction="sum")),
    ("weight size", lambda: F.nll_loss(x, t, weight=torch.ones(4))),
    ("weight dtype", lambda: F.nll_loss(x, t, weight=torch.ones(3, dtype=torch.float64))),
    ("probabilities ignore_index", lambda: F.cross_entropy(x, x.softmax(1), ignore_index=1)),
    ("smoothing", lambda: F.cross_entropy(x, t, label_smoothing=1.5)),
    ("int input", lambda: F.nll_loss(t.unsqueeze(1).repeat(1, 3, 1, 1), t)),
]
for name, fn in bad:
    try:
        fn()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, e)
