# typing.NamedTuple for batches and model outputs (the pattern of torchvision-style pipelines and
# the "Seq2seq translation" tutorials): fields with defaults, methods, and a TypeVar-typed helper.
# ruff: noqa: UP006, UP007, UP035, UP045 - typing's spellings are the subject
from typing import Callable, List, NamedTuple, Optional, TypeVar

import torch
import torch.nn.functional as F
from torch import Tensor


class Batch(NamedTuple):
    inputs: Tensor
    targets: Tensor
    weight: float = 1.0

    def size(self) -> int:
        return self.inputs.shape[0]


class Output(NamedTuple):
    logits: Tensor
    loss: Optional[Tensor] = None


T = TypeVar("T")


def first(items: List[T]) -> T:
    return items[0]


torch.manual_seed(3)
w = torch.randn(4, 3, requires_grad=True)
batches = [Batch(torch.randn(2, 4), torch.tensor([0, 2])) for _ in range(3)]
batches.append(Batch(torch.randn(1, 4), torch.tensor([1]), weight=0.5))
print(Batch._fields, Batch._field_defaults, Output._field_defaults)
print(first(batches).size(), batches[-1].weight, len(batches[0]))


def forward(batch: Batch, head: Callable[[Tensor], Tensor]) -> Output:
    logits = head(batch.inputs)
    return Output(logits, batch.weight * F.cross_entropy(logits, batch.targets))


outs = [forward(b, lambda x: x @ w) for b in batches]
total = sum(o.loss for o in outs)
total.backward()
print(total, total.grad_fn)
print(w.grad)
print(outs[0].logits.shape, outs[0]._replace(loss=None).loss, Output(outs[1].logits).loss)
inputs, targets, weight = batches[-1]
print(inputs.shape, targets, weight)
print(Batch.__annotations__)
print(first.__annotations__, forward.__annotations__["head"])
print(isinstance(batches[0], tuple), batches[0]._asdict().keys())
try:

    class Broken(NamedTuple):
        a: int = 0
        b: int

except TypeError as e:
    print("TypeError:", e)
