# torch.combinations as tutorials use it: all pairs of items (pairwise feature interactions of a
# factorization machine, pairwise distances between points), r=3 and with_replacement; values,
# the grad_fn chain (StackBackward0 over MaskedSelectBackward0 over meshgrid's views) and gradients
import torch

x = torch.tensor([1.0, 2.0, 3.0])
print(torch.combinations(x))
print(torch.combinations(x, r=3))
print(torch.combinations(x, with_replacement=True))
print(torch.combinations(torch.tensor([4, 5, 6, 7]), r=2))


def chain(node, depth=0):
    if node is None:
        return
    print("  " * depth + type(node).__name__)
    for child, _ in node.next_functions:
        chain(child, depth + 1)


# factorization machine: sum over pairs i < j of <v_i, v_j> x_i x_j
torch.manual_seed(0)
features = torch.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)
pairs = torch.combinations(features)
print(pairs.shape, pairs.grad_fn)
chain(pairs.grad_fn)
interaction = (pairs[:, 0] * pairs[:, 1]).sum()
interaction.backward()
print(interaction, features.grad)

# indices of the pairs, then pairwise distances between points
points = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]], requires_grad=True)
idx = torch.combinations(torch.arange(points.shape[0]), r=2)
print(idx)
d = (points[idx[:, 0]] - points[idx[:, 1]]).norm(dim=1)
print(d)
d.sum().backward()
print(points.grad)

w = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
triples = torch.combinations(w, r=3, with_replacement=True)
print(triples.shape)
triples.prod(dim=1).sum().backward()
print(w.grad)
print(torch.combinations(w, r=0), torch.combinations(w, r=5))
for bad in (lambda: torch.combinations(torch.ones(2, 2)), lambda: torch.combinations(w, r=-1)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
