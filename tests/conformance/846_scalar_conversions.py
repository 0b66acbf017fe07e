import torch


def attempt(label, run, *args):
    try:
        print(label, repr(run(*args)))
    except (RuntimeError, TypeError, ValueError, IndexError, OverflowError) as e:
        print(label, type(e).__name__ + ":", e)


def as_range(t):
    return list(range(t))


def as_list_index(t):
    return [10, 20, 30, 40, 50][t]


def as_str_index(t):
    return "abcdefghij"[t]


def as_slice_bound(t):
    return [1, 2, 3, 4][t:]


def as_repeat_count(t):
    return [0] * t


def item(t):
    return t.item()


def tolist(t):
    return t.tolist()


conversions = [
    float, int, bool, complex, item, hex, as_range, as_list_index, as_str_index,
    as_slice_bound, as_repeat_count, tolist, len,
]  # fmt: skip
values = [
    ("0-d float", torch.tensor(2.5)),
    ("1-element float", torch.tensor([2.5])),
    ("2 floats", torch.tensor([1.0, 2.0])),
    ("0-d int", torch.tensor(3)),
    ("1-element int", torch.tensor([[3]])),
    ("2 ints", torch.tensor([1, 2])),
    ("0-d bool", torch.tensor(True)),
    ("1-element bool", torch.tensor([False])),
    ("2 bools", torch.tensor([True, False])),
    ("0-d requiring grad", torch.tensor(2.5, requires_grad=True)),
    ("1-element requiring grad", torch.tensor([2.5], requires_grad=True)),
    ("2 requiring grad", torch.tensor([1.0, 2.0], requires_grad=True)),
    ("a non-leaf", torch.tensor([1.5], requires_grad=True) * 2),
    ("empty float", torch.tensor([])),
    ("empty long", torch.tensor([], dtype=torch.long)),
    ("0-d float64", torch.tensor(2.5, dtype=torch.float64)),
    ("negative float", torch.tensor(-2.7)),
    ("nan", torch.tensor(float("nan"))),
    ("inf", torch.tensor(float("inf"))),
    ("0-d int32", torch.tensor(4, dtype=torch.int32)),
    ("0-d uint8", torch.tensor(200, dtype=torch.uint8)),
    ("negative int", torch.tensor(-2)),
]
for name, value in values:
    for convert in conversions:
        attempt(f"{convert.__name__}({name}):", convert, value)
