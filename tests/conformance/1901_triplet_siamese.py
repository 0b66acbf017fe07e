# A siamese / metric-learning step (PyTorch docs' TripletMarginLoss example, FaceNet-style
# training loops in blog posts): one embedding net for anchor, positive and negative,
# nn.TripletMarginLoss (margin, p, swap), the pairwise distances it is built from, an SGD step,
# and the graph it records.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
embed = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
anchor_x, positive_x, negative_x = torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)
criterion = nn.TripletMarginLoss(margin=1.0, p=2)
print(criterion, criterion.margin, criterion.p, criterion.eps, criterion.swap)
optimizer = torch.optim.SGD(embed.parameters(), lr=0.05, momentum=0.9)
for step in range(3):
    optimizer.zero_grad()
    a, p, n = embed(anchor_x), embed(positive_x), embed(negative_x)
    loss = criterion(a, p, n)
    print(step, round(loss.item(), 6))
    loss.backward()
    print(embed[0].bias.grad)
    optimizer.step()

node = loss.grad_fn
for _ in range(4):
    print(node.name(), [f[0].name() if f[0] is not None else None for f in node.next_functions])
    node = node.next_functions[0][0]

a = torch.randn(3, 4, requires_grad=True)
p = torch.randn(3, 4, requires_grad=True)
n = torch.randn(3, 4, requires_grad=True)
for kwargs in (
    {},
    {"swap": True},
    {"p": 1, "margin": 2.0},
    {"reduction": "none"},
    {"reduction": "sum", "eps": 0.0},
):
    out = F.triplet_margin_loss(a, p, n, **kwargs)
    print(kwargs, out, out.grad_fn.name())
out = nn.TripletMarginLoss(margin=0.5, swap=True, reduction="none")(a, p, n)
print(out.grad_fn.next_functions[0][0].next_functions[1][0].name())
out.sum().backward()
print(a.grad, p.grad, n.grad, sep="\n")
print(F.pairwise_distance(a, p), nn.PairwiseDistance()(a, p).grad_fn.name())
print(F.triplet_margin_loss(torch.randn(4), torch.randn(4), torch.randn(4)))
for bad in (
    lambda: F.triplet_margin_loss(a, p, n[0]),
    lambda: F.triplet_margin_loss(a, p, n, margin=0.0),
    lambda: nn.TripletMarginLoss(margin=-1.0),
    lambda: F.triplet_margin_loss(a, p[:, :3], n),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
