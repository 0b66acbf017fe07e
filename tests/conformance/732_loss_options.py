import torch
import torch.nn.functional as F

logits = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [0.0, 0.0, 0.0]], requires_grad=True)
target = torch.tensor([1, 2, 0])
w = torch.tensor([1.0, 2.0, 0.5])
for kwargs in [
    {},
    {"weight": w},
    {"ignore_index": 2},
    {"label_smoothing": 0.1},
    {"weight": w, "label_smoothing": 0.2},
    {"reduction": "sum", "label_smoothing": 0.1},
]:
    loss = F.cross_entropy(logits, target, **kwargs)
    print(sorted(kwargs), loss, loss.grad_fn.name())
    loss.backward()
    print(logits.grad)
    logits.grad = None
probs = torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.1, 0.1, 0.8]])
for reduction in ("mean", "sum", "none"):
    loss = F.cross_entropy(logits, probs, reduction=reduction)
    print(reduction, loss, loss.grad_fn.name())
print(F.cross_entropy(logits, probs, label_smoothing=0.3))
logp = F.log_softmax(logits, 1)
print(F.nll_loss(logp, target, weight=w))
print(F.nll_loss(logp, target, weight=w, reduction="none"))
print(F.nll_loss(logp, torch.tensor([1, 1, 1]), ignore_index=1))
x = torch.tensor([-1.5, -0.2, 0.0, 0.4, 3.0], requires_grad=True)
y = torch.tensor([0.0, 0.5, -0.5, 0.5, 0.0])
for name, out in [
    ("huber", F.huber_loss(x, y, delta=0.5)),
    ("selu", F.selu(x).sum()),
    ("sl1 beta", F.smooth_l1_loss(x, y, beta=0.3)),
    ("mse", F.mse_loss(x, y, reduction="sum")),
]:
    out.backward()
    print(name, out, x.grad)
    x.grad = None
p = torch.tensor([0.25, 0.75], requires_grad=True)
t = torch.tensor([0.0, 1.0], requires_grad=True)
loss = F.binary_cross_entropy(p, t, weight=torch.tensor([2.0, 1.0]))
loss.backward()
print(loss, p.grad, t.grad)
