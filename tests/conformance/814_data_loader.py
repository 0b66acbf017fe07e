# torch.utils.data: Dataset, TensorDataset, Subset, ConcatDataset, random_split and DataLoader
# (batching, drop_last, len, the default collate for tensors, numbers, tuples, lists and dicts,
# its errors). Shuffled orders are random, so shuffling is checked by its properties only.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split

x = torch.arange(14.0).reshape(7, 2)
y = torch.tensor([0, 1, 1, 0, 1, 0, 0])
ds = TensorDataset(x, y)
print(len(ds), ds[2], ds[-1])
print(ds[1:3])
print(len(ds.tensors), ds.tensors[1])
try:
    TensorDataset(x, torch.ones(3))
except AssertionError as e:
    print("AssertionError:", e)

# batching, len and drop_last
for bs, drop in ((1, False), (2, False), (3, False), (3, True), (7, True), (8, False), (8, True)):
    loader = DataLoader(ds, batch_size=bs, drop_last=drop)
    sizes = [len(b[0]) for b in loader]
    print(bs, drop, len(loader), sizes)
loader = DataLoader(ds, batch_size=3)
for xb, yb in loader:
    print(xb, yb)
batch = next(iter(loader))
print(type(batch).__name__, len(batch), batch[0].dtype, batch[1].dtype)
it = iter(loader)
print(len(it), next(it)[1], next(it)[1], next(it)[1])
try:
    next(it)
except StopIteration:
    print("StopIteration")
print(loader.batch_size, loader.drop_last, loader.num_workers, type(loader.sampler).__name__)
print(type(loader.batch_sampler).__name__, loader.dataset is ds)

# batch_size=None: no batching, tuples become lists
unbatched = DataLoader(ds, batch_size=None)
print(len(unbatched), next(iter(unbatched)))


# a Dataset subclass returning numbers, tuples, lists, dicts and strings
class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {
            "i": i,
            "sq": float(i * i),
            "even": i % 2 == 0,
            "pair": (i, torch.tensor([i, -i])),
            "list": [float(i), torch.tensor(i * 0.5)],
            "name": f"item{i}",
        }


sq = Squares(5)
for b in DataLoader(sq, batch_size=2):
    print(b)
print(len(DataLoader(sq, batch_size=2)), len(DataLoader(sq, batch_size=2, drop_last=True)))
print(DataLoader(sq, batch_size=None).dataset is sq, next(iter(DataLoader(sq, batch_size=None))))


class Numbers(Dataset):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


for items in ([1, 2, 3], [0.5, 1.5, 2.5], [True, False, True], [(1, 2.0), (3, 4.0), (5, 6.0)]):
    print(next(iter(DataLoader(Numbers(items), batch_size=3))))
for items in ([[1, 2], [3]], [None, None], [object(), object()]):
    try:
        next(iter(DataLoader(Numbers(items), batch_size=2)))
    except Exception as e:
        print(type(e).__name__, str(e).replace("builtins.", ""))


class Empty(Dataset):
    pass


try:
    Empty()[0]
except NotImplementedError as e:
    print("NotImplementedError:", e)

# custom collate_fn
loader = DataLoader(ds, batch_size=4, collate_fn=lambda items: [int(b[1]) for b in items])
print(list(loader))

# Subset and ConcatDataset
sub = Subset(ds, [6, 0, 3])
print(len(sub), sub[0], sub.indices)
print([b[1] for b in DataLoader(sub, batch_size=2)])
both = ds + sub
print(type(both).__name__, len(both), both[7], both[-1], both.cumulative_sizes)

# random_split: lengths and fractions
torch.manual_seed(0)
parts = random_split(ds, [4, 3])
print([len(p) for p in parts], type(parts[0]).__name__)
idx = parts[0].indices + parts[1].indices
print(sorted(idx) == list(range(7)), len(set(idx)) == 7)
print([len(p) for p in random_split(range(10), [0.5, 0.3, 0.2])])
print([len(p) for p in random_split(range(10), [0.34, 0.33, 0.33])])
print([len(p) for p in random_split(range(11), [0.25, 0.25, 0.5])])
tenth = random_split(range(10), [0.1, 0.9])
print([len(p) for p in tenth], tenth[0][0] in range(10))
for lengths in ([3, 3], [0.5, 0.6], [1.5, -0.5]):
    try:
        random_split(ds, lengths)
    except ValueError as e:
        print("ValueError:", e)

# shuffle: each epoch is a permutation; the same seed gives the same order
big = TensorDataset(torch.arange(20))
shuffled = DataLoader(big, batch_size=6, shuffle=True)
print(len(shuffled), [len(b[0]) for b in shuffled], type(shuffled.sampler).__name__)
epoch = torch.cat([b[0] for b in shuffled])
print(sorted(epoch.tolist()) == list(range(20)))
torch.manual_seed(7)
first = [v for b in shuffled for v in b[0].tolist()]
torch.manual_seed(7)
second = [v for b in shuffled for v in b[0].tolist()]
print(first == second, sorted(first) == list(range(20)))
dropped = [
    v for b in DataLoader(big, batch_size=6, shuffle=True, drop_last=True) for v in b[0].tolist()
]
print(len(dropped), len(set(dropped)), all(0 <= v < 20 for v in dropped))
print([len(b[0]) for b in DataLoader(big, batch_size=6, shuffle=False, num_workers=0)])
print([b[1] for b in DataLoader(ds, batch_size=3, num_workers=2)])

# errors
for kwargs in (
    {"batch_size": 0},
    {"batch_size": -2},
    {"batch_size": None, "drop_last": True},
    {"sampler": [0, 1], "shuffle": True},
    {"num_workers": -1},
    {"drop_last": 1},
):
    try:
        DataLoader(ds, **kwargs)
    except ValueError as e:
        print("ValueError:", e)
try:
    loader.batch_size = 5
except ValueError as e:
    print("ValueError:", e)
print(len(DataLoader(ds, sampler=[6, 5, 4], batch_size=2)))
print([b[1] for b in DataLoader(ds, sampler=[6, 5, 4], batch_size=2)])

# a small training loop over the (unshuffled) loader
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2]]))
    model.bias.fill_(0.05)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
targets = TensorDataset(x / 10, y.float().unsqueeze(1))
for epoch in range(2):
    total = 0.0
    for xb, yb in DataLoader(targets, batch_size=3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 6))
print(model.weight, model.bias)

# batches of tensors that require grad keep their graph
w = torch.ones(4, 2, requires_grad=True)
b = next(iter(DataLoader(TensorDataset(w), batch_size=3)))[0]
print(b.grad_fn.name(), b.requires_grad)
b.sum().backward()
print(w.grad)
