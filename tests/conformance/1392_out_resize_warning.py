# Resizing an out that has elements warns (deprecated); an empty out is resized silently, a
# right-shaped one is written in place; element-wise ops that cast through a copy warn twice.
import warnings

import torch

a = torch.tensor([1.0, 2.0, 3.0])


def run(label, call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    print(label, tuple(out.shape) if isinstance(out, torch.Tensor) else "tuple", len(caught))
    for item in caught:
        print("  ", item.category.__name__, str(item.message).split(" (Triggered internally")[0])


run("add into [2]", lambda: torch.add(a, a, out=torch.ones(2)))
run("add into []", lambda: torch.add(a, a, out=torch.empty(0)))
run("add into [3]", lambda: torch.add(a, a, out=torch.ones(3)))
run("add into scalar", lambda: torch.add(a, a, out=torch.tensor(1.0)))
run("add into [2, 3] double", lambda: torch.add(a, a, out=torch.ones(2, 3, dtype=torch.float64)))
run("exp into [5] double", lambda: torch.exp(a, out=torch.ones(5, dtype=torch.float64)))
run("eq into [5]", lambda: torch.eq(a, a, out=torch.ones(5)))
run("eq into [5] bool", lambda: torch.eq(a, a, out=torch.ones(5, dtype=torch.bool)))
run("eq into [5] double", lambda: torch.eq(a, a, out=torch.ones(5, dtype=torch.float64)))
run("sum into [4]", lambda: torch.sum(a.view(3, 1), 1, out=torch.ones(4)))
run(
    "mean into [4] double",
    lambda: torch.mean(a.view(1, 3), 1, out=torch.ones(4, dtype=torch.float64)),
)
run("mm into [1]", lambda: torch.mm(a.view(3, 1), a.view(1, 3), out=torch.ones(1)))
run("cat into [2] double", lambda: torch.cat([a, a], out=torch.ones(2, dtype=torch.float64)))
run(
    "max into ([2], [2])",
    lambda: torch.max(a.view(1, 3), 1, out=(torch.ones(2), torch.ones(2, dtype=torch.long))),
)
run(
    "sort into ([], [9])",
    lambda: torch.sort(a, out=(torch.empty(0), torch.ones(9, dtype=torch.long))),
)
run("zeros into [9]", lambda: torch.zeros(3, out=torch.ones(9)))
run("rand into [9]", lambda: torch.rand(3, out=torch.ones(9)))

# written in place: views of out see the values
buffer = torch.zeros(2, 3)
row = buffer[1]
torch.mul(a, 10, out=row)
print(buffer)
column = torch.zeros(3, 2)
torch.exp(a, out=column[:, 0])
print(column)
t = torch.zeros(3, 2).t()
torch.add(torch.ones(2, 3), torch.arange(3.0), out=t)
print(t, t.t())
