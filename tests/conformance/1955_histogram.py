# torch.histogram for a distribution plot (weights or activations binned, as in a training
# monitor or matplotlib's hist from tensors): bins as a count or as edges, range=, weight=,
# density=, the torch.return_types.histogram tuple and its errors
import torch

x = torch.tensor([1.0, 2.0, 1.0])
print(torch.histogram(x, bins=4, range=(0.0, 3.0), weight=torch.tensor([1.0, 2.0, 4.0])))
print(
    torch.histogram(x, bins=4, range=(0.0, 3.0), weight=torch.tensor([1.0, 2.0, 4.0]), density=True)
)

torch.manual_seed(0)
data = torch.randn(1000)
hist, edges = torch.histogram(data, bins=8)
print(hist, edges)
print(hist.sum(), edges.shape)
density = torch.histogram(data, bins=8, density=True)
print(density.hist, (density.hist * edges.diff()).sum())
h = torch.histogram(data, bins=torch.tensor([-3.0, -1.0, 0.0, 1.0, 3.0]))
print(h.hist, h.bin_edges)
print(data.histogram(5, range=(-1.0, 1.0)))
print(torch.histogram(torch.tensor([2.0, 2.0]), 3))
print(torch.histogram(torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64), 2))
print(torch.histogram(torch.ones(2, 3), 2))
for call in (
    lambda: torch.histogram(x, 0),
    lambda: torch.histogram(x, 2, range=(3.0, 1.0)),
    lambda: torch.histogram(x, 2, weight=torch.ones(2)),
):
    try:
        call()
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.histogram(torch.tensor([1, 2]), 2)
except NotImplementedError as e:
    print("NotImplementedError:", e)
