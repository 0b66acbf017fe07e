# nn.TripletMarginWithDistanceLoss as PyTorch's documentation shows it: the default pairwise
# distance (a PairwiseDistance submodule in the repr), a module as the distance, and a cosine
# distance written as a lambda with swap; an embedding step, graphs, gradients and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
embedding = nn.Embedding(1000, 8).double()
anchor_ids = torch.randint(0, 1000, (4,))
positive_ids = torch.randint(0, 1000, (4,))
negative_ids = torch.randint(0, 1000, (4,))
anchor, positive, negative = embedding(anchor_ids), embedding(positive_ids), embedding(negative_ids)
triplet_loss = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance())
print(triplet_loss)
output = triplet_loss(anchor, positive, negative)
output.backward()
print(output, embedding.weight.grad[anchor_ids])


def l_infinity(x1, x2):
    return torch.max(torch.abs(x1 - x2), dim=1).values


custom = nn.TripletMarginWithDistanceLoss(distance_function=l_infinity, margin=1.5)
print(custom, custom.margin, custom.swap, custom.reduction)
output = custom(anchor, positive, negative)
print(output, output.grad_fn.name())

cosine = nn.TripletMarginWithDistanceLoss(
    distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y),
    margin=0.5,
    swap=True,
    reduction="none",
)
a = torch.randn(4, 3, requires_grad=True)
p = torch.randn(4, 3, requires_grad=True)
n = torch.randn(4, 3, requires_grad=True)
out = cosine(a, p, n)
print(out, out.grad_fn.name(), out.grad_fn.next_functions[0][0].next_functions[1][0].name())
out.sum().backward()
print(a.grad, p.grad, n.grad, sep="\n")
out = nn.TripletMarginWithDistanceLoss()(a, p, n)
print(
    out, [f[0].name() for f in out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions]
)
print(
    F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=nn.PairwiseDistance(p=1), reduction="sum"
    )
)
for bad in (
    lambda: nn.TripletMarginWithDistanceLoss(margin=0),
    lambda: F.triplet_margin_with_distance_loss(a, p, n, reduction="avg"),
    lambda: F.triplet_margin_with_distance_loss(a, p, n[0]),
):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
