# Building a batch with torch.cat / torch.stack from a list holding a non-tensor
import torch

a, b = torch.ones(2), torch.zeros(2)
for label, call in [
    ("torch.cat([a, [1.]])", lambda: torch.cat([a, [1.0]])),
    ("torch.stack([a, 1.])", lambda: torch.stack([a, 1.0])),
    ("torch.stack((a, None))", lambda: torch.stack((a, None))),
    ("torch.cat(a)", lambda: torch.cat(a)),
    ("torch.cat('ab')", lambda: torch.cat("ab")),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
print(torch.cat([a, b]), torch.stack([a, b]).shape)
