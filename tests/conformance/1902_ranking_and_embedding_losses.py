# Pairwise ranking and similarity losses as tutorials train them: a RankNet-style scorer with
# nn.MarginRankingLoss on (preferred, other) pairs, a contrastive pair model with
# nn.HingeEmbeddingLoss on distances, and nn.CosineEmbeddingLoss on paired sentence vectors
# (target 1 similar, -1 dissimilar): values, gradients, grad_fn chains, reductions, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
scorer = nn.Linear(4, 1)
better, worse = torch.randn(6, 4), torch.randn(6, 4)
target = torch.tensor([1.0, 1.0, -1.0, 1.0, -1.0, 1.0])
rank_loss = nn.MarginRankingLoss(margin=0.5)
print(rank_loss, rank_loss.margin)
optimizer = torch.optim.SGD(scorer.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    s1, s2 = scorer(better).squeeze(1), scorer(worse).squeeze(1)
    loss = rank_loss(s1, s2, target)
    print(
        step, round(loss.item(), 6), loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name()
    )
    loss.backward()
    print(scorer.weight.grad, scorer.bias.grad)
    optimizer.step()

x1 = torch.tensor([0.5, -1.0, 2.0, 0.1], requires_grad=True)
x2 = torch.tensor([0.0, 0.5, 1.0, 0.3], requires_grad=True)
y = torch.tensor([1.0, -1.0, -1.0, 1.0])
for reduction in ("none", "mean", "sum"):
    out = F.margin_ranking_loss(x1, x2, y, margin=0.2, reduction=reduction)
    print(reduction, out, out.grad_fn.name())
F.margin_ranking_loss(x1, x2, y, margin=0.2, reduction="sum").backward()
print(x1.grad, x2.grad)

# contrastive pairs: HingeEmbeddingLoss on the distance between two embeddings
d = F.pairwise_distance(torch.randn(5, 3, requires_grad=True), torch.randn(5, 3))
pair_y = torch.tensor([1, -1, 1, -1, -1])
hinge = nn.HingeEmbeddingLoss(margin=2.0)
print(hinge, hinge.margin)
out = hinge(d, pair_y)
print(out, out.grad_fn.name())
v = torch.tensor([0.3, 2.5, -0.4, 1.0, 0.0], requires_grad=True)
out = F.hinge_embedding_loss(v, torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0]), reduction="none")
print(out, out.grad_fn.name(), [f[0].name() for f in out.grad_fn.next_functions])
out.sum().backward()
print(v.grad)

# CosineEmbeddingLoss on sentence-vector pairs
u = torch.randn(4, 6, requires_grad=True)
w = torch.randn(4, 6, requires_grad=True)
sim = torch.tensor([1, -1, 1, -1])
cos_loss = nn.CosineEmbeddingLoss(margin=0.1)
print(cos_loss)
out = cos_loss(u, w, sim)
print(out, out.grad_fn.name())
out.backward()
print(u.grad)
print(w.grad)
out = F.cosine_embedding_loss(u, w, sim, reduction="none")
print(out, out.grad_fn.name())
print(F.cosine_embedding_loss(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 2.0]), torch.tensor(-1)))
print(
    F.cosine_embedding_loss(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 2.0]), torch.tensor(1.0))
)
for bad in (
    lambda: F.margin_ranking_loss(x1, x2, y.unsqueeze(1)),
    lambda: F.margin_ranking_loss(x1, x2[:3], y),
    lambda: F.cosine_embedding_loss(u, w, sim.unsqueeze(1)),
    lambda: F.cosine_embedding_loss(u[0], w[0], sim),
    lambda: F.cosine_embedding_loss(u, w, torch.tensor(1.0)),
    lambda: F.hinge_embedding_loss(v, y, reduction="avg"),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
