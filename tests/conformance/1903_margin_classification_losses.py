# Margin losses for classification: nn.MultiMarginLoss (the multi-class SVM hinge of CS231n,
# p=1 and squared p=2, class weights), nn.SoftMarginLoss (two-class logistic with ±1 labels) and
# nn.MultiLabelSoftMarginLoss (multi-label tagging, per-class weights) in a small training loop:
# values, gradients, grad_fn names, reductions and PyTorch's errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(5, 4)
x = torch.randn(6, 5)
classes = torch.tensor([0, 3, 1, 2, 3, 0])
svm = nn.MultiMarginLoss()
print(svm, svm.p, svm.margin, svm.weight)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = svm(model(x), classes)
    print(step, round(loss.item(), 6), loss.grad_fn.name())
    loss.backward()
    print(model.bias.grad)
    optimizer.step()

scores = torch.tensor(
    [[0.2, 1.5, -0.3, 0.9], [2.0, 0.1, 0.4, 1.8], [0.0, 0.0, 0.5, -1.0]], requires_grad=True
)
y = torch.tensor([1, 0, 2])
for kwargs in (
    {},
    {"p": 2},
    {"margin": 0.5, "reduction": "none"},
    {"weight": torch.tensor([1.0, 2.0, 0.5, 1.0]), "reduction": "sum"},
):
    out = F.multi_margin_loss(scores, y, **kwargs)
    print(out, out.grad_fn.name())
weighted = nn.MultiMarginLoss(p=2, margin=0.8, weight=torch.tensor([1.0, 2.0, 0.5, 1.0]))
print(weighted, list(weighted.state_dict()))
weighted(scores, y).backward()
print(scores.grad)
print(F.multi_margin_loss(torch.tensor([0.1, 0.2, 0.4, 0.8]), torch.tensor([3])))
print(F.multi_margin_loss(torch.tensor([0.1, 0.2, 0.4, 0.8]), torch.tensor(1), reduction="none"))

# SoftMarginLoss: labels in {-1, 1}
logits = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.8, 0.0]], requires_grad=True)
pm = torch.tensor([[1.0, -1.0, -1.0], [1.0, 1.0, -1.0]])
soft = nn.SoftMarginLoss()
print(soft)
for reduction in ("none", "mean", "sum"):
    out = F.soft_margin_loss(logits, pm, reduction=reduction)
    print(reduction, out, out.grad_fn.name())
soft(logits, pm).backward()
print(logits.grad)
(g,) = torch.autograd.grad(F.soft_margin_loss(logits, pm), logits, create_graph=True)
print(g.grad_fn.name(), g)

# MultiLabelSoftMarginLoss: multi-hot targets
tagger = nn.Linear(5, 3)
tags = torch.tensor(
    [
        [1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
    ]
)
multilabel = nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 0.5, 2.0]))
print(multilabel, multilabel.weight)
loss = multilabel(tagger(x), tags)
print(loss, loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
loss.backward()
print(tagger.weight.grad)
out = F.multilabel_soft_margin_loss(tagger(x), tags, reduction="none")
print(out, out.grad_fn.name())
for bad in (
    lambda: F.multi_margin_loss(scores, y, p=3),
    lambda: F.multi_margin_loss(scores, torch.tensor([1, 4, 0])),
    lambda: F.multi_margin_loss(scores, y[:2]),
    lambda: F.multi_margin_loss(scores, y.float()),
    lambda: F.multi_margin_loss(scores, y, weight=torch.ones(3)),
    lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2)),
    lambda: F.soft_margin_loss(logits, pm[:, :2]),
    lambda: F.soft_margin_loss(logits[:, :1], pm),
    lambda: F.multilabel_soft_margin_loss(logits, pm, reduction="avg"),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
