# ruff: noqa: B009, B010 - getattr/setattr with names are the subject
# delattr / hasattr / getattr with a default on models and plain objects, with Python's and
# PyTorch's messages for what is missing or of the wrong type
import torch
from torch import nn

torch.manual_seed(2)
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
head = model[2]
head.register_buffer("mask", torch.tensor([1.0, 0.0]))
head.note = "frozen"
print(hasattr(head, "mask"), hasattr(head, "note"), hasattr(head, "bias"))
delattr(head, "mask")
delattr(head, "note")
print(hasattr(head, "mask"), hasattr(head, "note"), head._buffers)
delattr(head, "bias")
print(hasattr(head, "bias"), "bias" in head._parameters)
head.register_parameter("bias", None)
print(head)
out = model(torch.ones(3, 2))
print(out.grad_fn, out.shape)
for bad in (
    lambda: delattr(head, "mask"),
    lambda: delattr(head, 5),
    lambda: delattr(head),
    lambda: setattr(head, "x"),
    lambda: getattr(head),
    lambda: getattr(head, "a", 1, 2),
):
    try:
        bad()
    except (AttributeError, TypeError) as e:
        print(type(e).__name__ + ":", e)


class Box:
    pass


b = Box()
setattr(b, "value", torch.tensor(3.0, requires_grad=True))
print(getattr(b, "value"), getattr(b, "missing", "default"))
(getattr(b, "value") ** 2).backward()
print(b.value.grad)
delattr(b, "value")
print(hasattr(b, "value"))
try:
    delattr(b, "value")
except AttributeError as e:
    print("AttributeError:", e)
