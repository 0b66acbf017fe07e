# Knowledge distillation (PyTorch's "Knowledge Distillation" tutorial, Hinton et al.): a student
# matches the teacher's temperature-softened distribution with nn.KLDivLoss(reduction=
# "batchmean") over log_softmax / softmax, scaled by T², plus cross-entropy on the labels; the
# tutorial's hand-written KL for comparison, log_target, the other reductions and a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4))
student = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
x = torch.randn(5, 6)
labels = torch.tensor([0, 3, 1, 2, 3])
T = 2.0
soft_w, ce_w = 0.25, 0.75
kl = nn.KLDivLoss(reduction="batchmean")
ce = nn.CrossEntropyLoss()
print(kl, ce)
print(kl.reduction, kl.log_target)

optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
with torch.no_grad():
    teacher_logits = teacher(x)
for step in range(3):
    optimizer.zero_grad()
    student_logits = student(x)
    soft_targets = F.softmax(teacher_logits / T, dim=-1)
    soft_prob = F.log_softmax(student_logits / T, dim=-1)
    distill = kl(soft_prob, soft_targets) * T**2
    label_loss = ce(student_logits, labels)
    loss = soft_w * distill + ce_w * label_loss
    # the tutorial's own sum, the same number
    manual = (
        torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
    )
    print(step, round(distill.item(), 6), round(manual.item(), 6), round(loss.item(), 6))
    print(distill.grad_fn.name(), distill.grad_fn.next_functions[0][0].name())
    loss.backward()
    print(student[2].weight.grad)
    optimizer.step()

p = F.log_softmax(torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], requires_grad=True), 1)
q = torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.1, 0.9]])
for reduction in ("none", "sum", "batchmean"):
    out = nn.KLDivLoss(reduction=reduction)(p, q)
    print(reduction, out, out.grad_fn.name())
logq = torch.log_softmax(torch.tensor([[0.3, 0.1, 0.2], [1.0, 0.0, -1.0]]), 1)
both_log = nn.KLDivLoss(reduction="batchmean", log_target=True)
print(both_log, both_log.log_target)
out = both_log(p, logq)
print(out, out.grad_fn.name())
leaf = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], requires_grad=True)
F.kl_div(F.log_softmax(leaf, 1), logq, reduction="sum", log_target=True).backward()
print(leaf.grad)
print(nn.KLDivLoss(size_average=False).reduction, nn.KLDivLoss(reduce=False).reduction)
try:
    nn.KLDivLoss(reduction="avg")(p, q)
except ValueError as e:
    print(type(e).__name__, e)
