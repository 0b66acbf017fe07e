# What the legacy constructors refuse, as PyTorch words it.
import torch

F = torch.FloatTensor
cases = [
    lambda: F("a"),
    lambda: F(None),
    lambda: F(2.5),
    lambda: F(-1),
    lambda: F(2, 3.0),
    lambda: F([[1, 2], [3]]),
    lambda: F(["a"]),
    lambda: F(torch.tensor([1, 2])),
    lambda: torch.ByteTensor([300]),
    lambda: torch.IntTensor([1e10]),
    lambda: torch.LongTensor([float("nan")]),
    lambda: F([1, 2], device="cuda"),
    lambda: torch.cuda.FloatTensor([1]),
    lambda: torch.ones(2).type("float64"),
    lambda: torch.ones(2).type(3),
    lambda: torch.ones(2).type(int),
    lambda: F([1, 2], requires_grad=True),
]
for make in cases:
    try:
        print(make())
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
