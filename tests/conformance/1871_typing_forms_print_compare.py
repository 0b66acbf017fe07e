# typing's forms as tutorials print and compare them: annotations of model helpers, Optional and
# Union spellings, isinstance with unsubscripted generics, and the errors typing gives.
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Optional, Union

import torch
from torch import Tensor, nn

Activation = Callable[[Tensor], Tensor]
Shape = tuple[int, ...]


def build_mlp(sizes: Sequence[int], act: Activation | None = None) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


torch.manual_seed(1)
net = build_mlp([3, 4, 2])
out = net(torch.randn(5, 3))
print(out.shape, out.grad_fn)
out.sum().backward()
print(net[0].weight.grad.sum())
print(build_mlp.__annotations__)
print(Activation, Shape)
print(list, list[int], dict[str, list[Tensor]], typing.Any)
print(Optional[int], Union[int, None], Union[int, str], Union[int, str | None])
print(Optional[int] == Union[None, int], list[int] == list[int], Union[int, str] == Union[str, int])
print(int | list[int], list[float] | None, Union[int])
print(Callable[..., Tensor], Callable[[], None], tuple[()], Iterable[tuple[str, Tensor]])
print(isinstance([1], list), isinstance({}, dict), isinstance((1,), tuple))
print(isinstance(3, Union[int, str]), isinstance(None, Optional[int]), isinstance(len, Callable))
print(typing.get_origin(dict[str, int]), typing.get_args(dict[str, int]))
print(typing.get_args(Callable[[int, str], float]), typing.get_origin(Union[int, str]))
print(typing.cast(Tensor, out).shape, typing.TYPE_CHECKING)
T = typing.TypeVar("T")
print(T, typing.TypeVar("T_co", covariant=True), list["Node"])
for bad in [
    "List()",
    "List[int, str]",
    "Dict[int]",
    "Optional[int, str]",
    "Any()",
    "isinstance([], List[int])",
    "isinstance(1, Any)",
    "Tuple[int][str]",
    "Union[()]",
]:
    try:
        eval(bad)
    except TypeError as e:
        print(f"{bad}: TypeError: {e}")
