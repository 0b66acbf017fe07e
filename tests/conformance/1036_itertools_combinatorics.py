# itertools.product, permutations, combinations, combinations_with_replacement: a grid search
# and pairwise gradient checks.
import itertools

import torch

print(list(itertools.product([0, 1], repeat=3)))
print(list(itertools.product("ab", [1, 2])))
print(list(itertools.permutations("abc")))
print(list(itertools.permutations(range(4), 2)))
print(list(itertools.combinations(range(5), 3)))
print(list(itertools.combinations_with_replacement("xyz", 2)))
print(len(list(itertools.product(range(3), range(4), repeat=2))))
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x.prod() * x.sum()
(grad,) = torch.autograd.grad(y, x, create_graph=True)
for i, j in itertools.combinations(range(3), 2):
    (second,) = torch.autograd.grad(grad[i], x, retain_graph=True)
    print(i, j, round(second[j].item(), 6))
best = None
for lr, momentum in itertools.product([0.01, 0.1], [0.0, 0.9]):
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=lr, momentum=momentum)
    for _ in range(10):
        opt.zero_grad()
        loss = (w**2).sum()
        loss.backward()
        opt.step()
    print(lr, momentum, round(loss.item(), 6))
    if best is None or loss.item() < best[0]:
        best = (loss.item(), lr, momentum)
print("best", best[1:])
