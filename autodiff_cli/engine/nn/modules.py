"""nn.Module and the basic layers: parameters registered by attribute assignment."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..creation import _Generator
from ..tensor import Tensor, _init
from . import functional as F


class Parameter(Tensor):
    """A leaf tensor that a Module registers as a parameter; printed `Parameter containing:`."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            array = np.zeros((0,), np.float32)
        else:
            array = data._array()
        _init(self, array, False, None, 0)
        if data is not None:
            self._vbox = data._version_box()
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        from ..printing import format_parameter

        return format_parameter(np.asarray(self._data), self._repr_suffixes())

    __str__ = __repr__


Parameter.__module__ = "torch.nn.parameter"


class Module:
    """Base class: submodules and parameters are found through attribute assignment."""

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if params is None:
            raise AttributeError("cannot assign module before Module.__init__() call")
        if isinstance(value, Parameter):
            self._modules.pop(name, None)
            params[name] = value
        elif isinstance(value, Module):
            params.pop(name, None)
            self._modules[name] = value
        elif name in params and value is None:
            params[name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def named_parameters(
        self, prefix: str = "", recurse: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        seen = set()
        for mod_prefix, module in (
            self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        ):
            for name, p in module._parameters.items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), p

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        stack = [(prefix, self)]
        seen = set()
        while stack:
            name, module = stack.pop(0)
            if id(module) in seen:
                continue
            seen.add(id(module))
            yield name, module
            for child_name, child in module._modules.items():
                if child is not None:
                    stack.append((f"{name}.{child_name}" if name else child_name, child))

    def modules(self) -> Iterator[Module]:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self) -> Iterator[Module]:
        for _, m in self.named_children():
            yield m

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.parameters():
            if p._grad is not None:
                if set_to_none:
                    p._grad = None
                else:
                    p._grad._array()[...] = 0

    def train(self, mode: bool = True) -> Module:
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def state_dict(self) -> OrderedDict:
        return OrderedDict((name, p.detach()) for name, p in self.named_parameters())

    def load_state_dict(self, state: dict, strict: bool = True) -> Any:
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        if strict and (missing or unexpected):
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + (
                    f"Missing key(s) in state_dict: {', '.join(repr(k) for k in missing)}. "
                    if missing
                    else ""
                )
                + (
                    f"Unexpected key(s) in state_dict: {', '.join(repr(k) for k in unexpected)}. "
                    if unexpected
                    else ""
                )
            )
        for k, p in own.items():
            if k in state:
                p._array()[...] = state[k]._data
        return _IncompatibleKeys(missing, unexpected)

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split("\n")
        children = []
        for name, m in self._modules.items():
            mod_str = repr(m).replace("\n", "\n  ")
            children.append(f"({name}): {mod_str}")
        lines = lines + children
        main = type(self).__name__ + "("
        if lines:
            if len(extra.split("\n")) == 1 and not children:
                main += extra
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class _IncompatibleKeys(tuple):
    def __new__(cls, missing: list, unexpected: list):
        return super().__new__(cls, (missing, unexpected))

    def __repr__(self) -> str:
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]}, unexpected_keys={self[1]})"


def _uniform(shape: tuple, bound: float) -> Tensor:
    from ..tensor import _wrap

    return _wrap(_Generator.rng.uniform(-bound, bound, shape).astype(np.float32))


class Linear(Module):
    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        self.weight = Parameter(_uniform((out_features, in_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None
        if not bias:
            self._parameters["bias"] = None

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Sequential(Module):
    def __init__(self, *modules: Module) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self._modules[name] = m
        else:
            for i, m in enumerate(modules):
                self._modules[str(i)] = m

    def forward(self, input: Any) -> Any:
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, index: int) -> Module:
        return list(self._modules.values())[index]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input.relu()


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class MSELoss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(MSELoss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(Module):
    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None) -> None:
        super().__init__()
        self.reduction = reduction
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, reduction=self.reduction, pos_weight=self.pos_weight
        )
