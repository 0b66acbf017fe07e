# typing's forms as tutorials print and compare them: annotations of model helpers, Optional and
# Union spellings, isinstance with unsubscripted generics, and the errors typing gives.
# ruff: noqa: UP006, UP007, UP035, UP045, F821 - typing's spellings are the subject
import typing
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor, nn

Activation = Callable[[Tensor], Tensor]
Shape = Tuple[int, ...]


def build_mlp(sizes: Sequence[int], act: Optional[Activation] = None) -> nn.Sequential:
    layers: List[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


torch.manual_seed(1)
net = build_mlp([3, 4, 2])
out = net(torch.randn(5, 3))
print(out.shape, type(out.grad_fn).__name__)
out.sum().backward()
print(net[0].weight.grad.sum())
print(build_mlp.__annotations__)
print(Activation, Shape)
print(List, List[int], Dict[str, List[Tensor]], Any, typing.Any is Any)
print(Optional[int], Union[int, None], Union[int, str], Union[int, Optional[str]])
print(Optional[int] == Union[None, int], List[int] == List[int], Union[int, str] == Union[str, int])
print(int | List[int], List[float] | None, Union[int])
print(Callable[..., Tensor], Callable[[], None], Tuple[()], Iterable[Tuple[str, Tensor]])
print(isinstance([1], List), isinstance({}, Dict), isinstance((1,), Tuple))
print(isinstance(3, Union[int, str]), isinstance(None, Optional[int]), isinstance(len, Callable))
print(typing.get_origin(Dict[str, int]), typing.get_args(Dict[str, int]))
print(typing.get_args(Callable[[int, str], float]), typing.get_origin(Union[int, str]))
print(typing.cast(Tensor, out).shape, typing.TYPE_CHECKING)
T = typing.TypeVar("T")
print(T, typing.TypeVar("T_co", covariant=True), List["Node"])
for bad in ["List()", "List[int, str]", "Dict[int]", "Optional[int, str]", "Any()",
            "isinstance([], List[int])", "isinstance(1, Any)", "Tuple[int][str]", "Union[()]"]:  # fmt: skip
    try:
        eval(bad)
    except TypeError as e:
        print(f"{bad}: TypeError: {e}")
