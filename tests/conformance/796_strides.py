# Tensor.stride() and storage_offset() for contiguous tensors and common views.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
cases = [
    ("x", x),
    ("x.t-like transpose(0, 2)", x.transpose(0, 2)),
    ("permute", x.permute(2, 0, 1)),
    ("x[1]", x[1]),
    ("x[:, 1]", x[:, 1]),
    ("x[..., 1:3]", x[..., 1:3]),
    ("x[:, ::2]", x[:, ::2]),
    ("x[1, 2, 3]", x[1, 2, 3]),
    ("unsqueeze(0)", x.unsqueeze(0)),
    ("unsqueeze(-1)", x.unsqueeze(-1)),
    ("expand", torch.ones(3, 1).expand(3, 4)),
    ("view", x.view(6, 4)),
    ("flatten", x.flatten()),
    ("select", x.select(1, 2)),
    ("narrow", x.narrow(2, 1, 2)),
    ("diagonal", torch.ones(3, 3).diagonal()),
    ("scalar", torch.tensor(2.0)),
    ("empty", torch.zeros(0, 3)),
    ("contiguous", x.transpose(0, 1).contiguous()),
    ("mT", torch.ones(2, 3).mT),
]
for name, t in cases:
    print(name, t.stride(), t.storage_offset(), t.is_contiguous())
print(x.stride(0), x.stride(-1), x.transpose(0, 2).stride(1))
try:
    x.stride(3)
except IndexError as e:
    print(type(e).__name__, e)
print(torch.zeros(3, 0).stride(), torch.zeros(2, 0, 4).stride(), torch.ones(2, 3)[:, 1:2].stride())
print(
    torch.ones(2, 1, 3).stride(), torch.ones(4)[None, :, None].stride(), torch.tensor(1.0).stride()
)
scalar = torch.tensor(1.0)
for dim in (0, -1, 1):
    try:
        print(scalar.stride(dim))
    except IndexError as e:
        print(type(e).__name__, e)
