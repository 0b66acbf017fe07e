# torch.utils.data beyond the basics: IterableDataset batching (drop_last, batch_size=None),
# samplers and batch_sampler, nested collate (dicts in lists in tuples, bools, float64), the
# default_collate/default_convert functions, ConcatDataset of several, Subset of a Subset and
# shuffling checked by its properties (orders are the engine's own).
import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    default_collate,
    default_convert,
)


class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([{"i": i, "x": torch.tensor([float(i), -float(i)])} for i in range(self.n)])

    def __len__(self):
        return self.n


for bs, drop in ((3, False), (3, True), (5, False), (7, True)):
    loader = DataLoader(Count(7), batch_size=bs, drop_last=drop)
    batches = list(loader)
    print(bs, drop, len(loader), [b["i"].tolist() for b in batches])
print(batches[0]["x"])
print(list(DataLoader(Count(3), batch_size=None))[1])
for kwargs in ({"shuffle": True}, {"sampler": [0, 1]}, {"batch_sampler": [[0]]}):
    try:
        DataLoader(Count(3), **kwargs)
    except ValueError as e:
        print("ValueError:", e)

# samplers
ds = TensorDataset(torch.arange(10), torch.arange(10.0) * 0.5)
print(list(SequentialSampler(ds)), len(SequentialSampler(ds)))
print(list(BatchSampler(SequentialSampler(ds), 4, False)), list(BatchSampler(range(10), 4, True)))
print(len(BatchSampler(range(10), 4, False)), len(BatchSampler(range(10), 4, True)))
loader = DataLoader(ds, batch_sampler=[[9, 0], [3], [4, 5, 6]])
print(len(loader), [b[0].tolist() for b in loader], loader.batch_size, loader.drop_last)
torch.manual_seed(0)
drawn = list(RandomSampler(ds, replacement=True, num_samples=25))
print(len(drawn), all(0 <= i < 10 for i in drawn))
print(sorted(RandomSampler(ds)) == list(range(10)), len(RandomSampler(ds, num_samples=4)))
print(sorted(SubsetRandomSampler([3, 1, 4, 1, 5])), len(SubsetRandomSampler([2, 7])))
picked = [
    b[0].tolist() for b in DataLoader(ds, batch_size=3, sampler=SubsetRandomSampler([8, 2, 5, 1]))
]
print([len(b) for b in picked], sorted(v for b in picked for v in b))
for bad in (
    lambda: BatchSampler(range(3), 0, False),
    lambda: BatchSampler(range(3), 2, "no"),
    lambda: RandomSampler(ds, replacement=1),
    lambda: RandomSampler(ds, num_samples=-1),
):
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)

# shuffle: every epoch a permutation, each batch's pairs stay together
shuffled = DataLoader(ds, batch_size=4, shuffle=True)
for _ in range(2):
    pairs = [(int(a), float(b)) for xb, yb in shuffled for a, b in zip(xb, yb)]
    print(sorted(p[0] for p in pairs) == list(range(10)), all(b == a * 0.5 for a, b in pairs))
print([len(b[0]) for b in DataLoader(ds, batch_size=4, shuffle=True, drop_last=True)])


# nested collate
class Nested(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return (
            {"id": i, "flag": i % 2 == 1, "pos": [float(i), i * 10]},
            [torch.full((2,), float(i)), ("tag", i)],
            torch.tensor(i, dtype=torch.float64),
        )


for batch in DataLoader(Nested(), batch_size=3):
    print(batch)
print(default_collate([(1, [2.5, True]), (3, [4.5, False])]))
print(default_collate([{"a": torch.ones(2)}, {"a": torch.zeros(2)}]))
print(default_collate(["x", "y"]), default_collate([("p", 1), ("q", 2)]))
print(default_convert((1, [torch.ones(1), "s"], {"k": 2.0})))
try:
    default_collate([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print("RuntimeError:", e)

# ConcatDataset of several, Subset of a Subset
parts = ConcatDataset(
    [
        TensorDataset(torch.arange(3)),
        TensorDataset(torch.arange(10, 12)),
        TensorDataset(torch.arange(20, 25)),
    ]
)
print(len(parts), parts.cumulative_sizes, parts[2], parts[3], parts[4], parts[-1])
print([b[0].tolist() for b in DataLoader(parts, batch_size=4)][:3])
inner = Subset(ds, [9, 7, 5, 3, 1])
outer = Subset(inner, [4, 0, 2])
print(
    len(outer),
    [int(outer[i][0]) for i in range(3)],
    [b[0].tolist() for b in DataLoader(outer, batch_size=2)],
)
try:
    ConcatDataset([])
except AssertionError as e:
    print("AssertionError:", e)
try:
    ConcatDataset([Count(2)])
except AssertionError as e:
    print("AssertionError:", e)
