# Distances between vectors: torch.cosine_similarity / nn.CosineSimilarity (word-vector
# similarity as in embedding tutorials), torch.pairwise_distance / nn.PairwiseDistance (p-norms,
# keepdim, broadcasting), torch.pdist over all row pairs (clustering tutorials) with its
# gradient, the create_graph node PyTorch cannot differentiate, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vectors = torch.randn(5, 4, requires_grad=True)
query = vectors[0:1]
cos = nn.CosineSimilarity(dim=1, eps=1e-6)
print(cos, cos.dim, cos.eps)
sims = cos(query, vectors)
print(sims, sims.grad_fn.name())
print(torch.cosine_similarity(vectors[1], vectors[2], dim=0))
print(torch.cosine_similarity(vectors, vectors[3]))
sims.sum().backward()
print(vectors.grad)

a = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], requires_grad=True)
b = torch.tensor([[2.0, 0.0, 3.5], [1.0, 1.0, 1.0]], requires_grad=True)
pdist_module = nn.PairwiseDistance(p=1, keepdim=True)
print(pdist_module, pdist_module.norm, pdist_module.eps, pdist_module.keepdim)
print(pdist_module(a, b))
for p in (2.0, 1, 3, 0.5, float("inf"), 0):
    d = torch.pairwise_distance(a, b, p=p)
    print(p, d, d.grad_fn.name(), d.grad_fn.next_functions[0][0].name())
d = F.pairwise_distance(a, b)
d.sum().backward()
print(a.grad, b.grad, sep="\n")
print(F.pairwise_distance(a, torch.tensor([0.0, 1.0, 0.0])))
print(F.pairwise_distance(torch.tensor([3.0, 4.0]), torch.tensor([0.0, 0.0])))
print(F.pairwise_distance(torch.tensor([[1, 2]]), torch.tensor([[1, 2]])))

points = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [-2.0, 0.5]], requires_grad=True)
d = torch.pdist(points)
print(d, d.grad_fn.name())
print(F.pdist(points, p=1), torch.pdist(points, 0), torch.pdist(points, float("inf")))
print(torch.pdist(points, 0.5))
(d * torch.arange(1.0, 7.0)).sum().backward()
print(points.grad)
(g,) = torch.autograd.grad(torch.pdist(points).sum(), points, create_graph=True)
print(g.grad_fn.name(), g)
try:
    g.sum().backward()
except NotImplementedError as e:
    print(type(e).__name__, e)
print(torch.pdist(torch.randn(1, 3)))
for bad in (
    lambda: torch.pdist(points[0]),
    lambda: torch.pdist(points, p=-1),
    lambda: torch.pdist(torch.ones(3, 2, dtype=torch.long)),
    lambda: F.pairwise_distance(a, b[:, :2]),
    lambda: torch.cosine_similarity(a, b, dim=2),
    lambda: torch.cosine_similarity(torch.tensor([1, 2]), torch.tensor([3, 4]), dim=0),
):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
