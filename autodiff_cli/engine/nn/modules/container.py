"""The containers: `nn.Sequential`, `ModuleList`, `ModuleDict`, `ParameterList`, `ParameterDict`."""

from __future__ import annotations

import collections.abc as abc
import itertools
import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from ..module import Module, _indent_rest
from ..parameter import Parameter
from ..parameter import typename as _typename


def _checked_index(idx: Any, size: int) -> int:
    """A Sequential's or ModuleList's position `idx` (negative from the end) as 0..size-1."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class Sequential(Module):
    """Calls its modules in order; indexable (a slice gives a Sequential), sized, iterable."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_checked_index(idx, len(self))]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[_checked_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx: Any) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [keys[_checked_index(idx, len(self))]]:
            del self._modules[key]
        items = list(self._modules.values())
        self._modules.clear()
        for index, module in enumerate(items):
            self._modules[str(index)] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input: Any) -> Any:
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules, registered under "0", "1", ...; repeated entries print compressed."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            for module in modules:
                self.append(module)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_checked_index(idx, len(self)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_checked_index(idx, len(self))), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def __repr__(self) -> str:
        """Runs of equal modules print once: `(0-2): 3 x Linear(...)`."""
        lines, start = [], 0
        for text, run in itertools.groupby(repr(module) for module in self):
            count = len(list(run))
            head = f"({start}): " if count == 1 else f"({start}-{start + count - 1}): {count} x "
            lines.append(_indent_rest(head + text, 2))
            start += count
        if not lines:
            return self._get_name() + "()"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Modules under string keys, registered as children in insertion order."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        if isinstance(key, str) and key not in self._modules and hasattr(self, key):
            raise KeyError(f"attribute '{key}' already exists")
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def keys(self) -> Any:
        return self._modules.keys()

    def items(self) -> Any:
        return self._modules.items()

    def values(self) -> Any:
        return self._modules.values()

    def update(self, modules: Any) -> None:
        """Adds (key, module) pairs from a mapping or an iterable of pairs, in their order."""
        for key, module in _update_pairs(modules, "ModuleDict", "ModuleDict", sort_dicts=False):
            self[key] = module


def _update_pairs(items: Any, kind: str, caller: str, sort_dicts: bool) -> list[tuple[Any, Any]]:
    """The (key, value) pairs a ModuleDict/ParameterDict `update` adds, with PyTorch's checks:
    ordered containers in their order, other mappings sorted if `sort_dicts`, or pairs."""
    if not isinstance(items, abc.Iterable):
        raise TypeError(
            f"{caller}.update should be called with an iterable of key/value pairs, but got "
            + type(items).__name__
        )
    if isinstance(items, (OrderedDict, ModuleDict, ParameterDict)):
        return list(items.items())
    if isinstance(items, abc.Mapping):
        return sorted(items.items()) if sort_dicts else list(items.items())
    pairs = []
    for j, pair in enumerate(items):
        if not isinstance(pair, abc.Iterable):
            raise TypeError(
                f"{kind} update sequence element #{j} should be Iterable; is" + type(pair).__name__
            )
        if len(pair) != 2:
            raise ValueError(
                f"{kind} update sequence element #{j} has length {len(pair)}; 2 is required"
            )
        pairs.append((pair[0], pair[1]))
    return pairs


def _container_entry(key: Any, value: Any, type_text: Any) -> str:
    """One line of ParameterList/ParameterDict's extra_repr."""
    if isinstance(value, Tensor):
        size = "x".join(str(s) for s in value.shape)
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{type_text(value)} of size {size}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


class ParameterList(Module):
    """A list whose tensors become registered Parameters named "0", "1", ..."""

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def _get_abs_string_index(self, idx: Any) -> str:
        return str(_checked_index(idx, len(self)))

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            out = type(self)()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx: int, param: Any) -> None:
        name = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, name, param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def append(self, value: Any) -> ParameterList:
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        if not isinstance(values, abc.Iterable) or isinstance(values, Tensor):
            raise TypeError(
                "ParameterList.extend should be called with an iterable, but got "
                + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_container_entry(k, p, lambda t: str(t.dtype)) for k, p in enumerate(self))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict whose tensors become registered Parameters under their (string) keys."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        self._objects: dict[str, Any] = {}  # entries that are not tensors
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need "
                "non-string keys."
            )
        return key

    # Entries live in `_parameters` (tensors, as Parameters) or `_objects`, never in the
    # instance's own attributes: a key such as "__class__" or "forward" cannot reach or replace
    # an attribute, and is refused as one that already exists, as a parameter name would be.
    def __getitem__(self, key: str) -> Any:
        name = self._key_to_attr(key)
        if name in self._keys:
            return self._parameters[name] if name in self._parameters else self._objects[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setitem__(self, key: str, value: Any) -> None:
        name = self._key_to_attr(key)
        if isinstance(value, Tensor):
            self._objects.pop(name, None)
            self.register_parameter(
                name, value if isinstance(value, Parameter) else Parameter(value)
            )
        elif name in self._parameters:
            setattr(self, name, value)  # None, or the TypeError of assigning a non-Parameter
        else:
            self._check_name(name, "parameter")
            if name not in self._objects and hasattr(self, name):
                raise KeyError(f"attribute '{name}' already exists")
            self._objects[name] = value
        self._keys[name] = None

    def __getattr__(self, name: str) -> Any:
        objects = self.__dict__.get("_objects")
        if objects is not None and name in objects:
            return objects[name]
        return super().__getattr__(name)

    def __delitem__(self, key: str) -> None:
        name = self._key_to_attr(key)
        del self._keys[name]
        self._parameters.pop(name, None)
        self._objects.pop(name, None)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        for k in self._keys.copy():
            del self[k]

    def pop(self, key: str) -> Any:
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple[str, Any]:
        k, _ = self._keys.popitem()
        self._keys[k] = None
        val = self[k]
        del self[k]
        return k, val

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default: Any = None) -> ParameterDict:
        return ParameterDict((k, default) for k in keys)

    def keys(self) -> Any:
        return self._keys.keys()

    def items(self) -> Iterator[tuple[str, Any]]:
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterator[Any]:
        return (self[k] for k in self._keys)

    def update(self, parameters: Any) -> None:
        """Adds pairs from an OrderedDict/ParameterDict or iterable of pairs (in order) or from
        another mapping (sorted by key, as PyTorch does)."""
        for key, value in _update_pairs(parameters, "ParameterDict", "ParametersDict", True):
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_container_entry(k, p, _typename) for k, p in self.items())

    def __call__(self, input: Any) -> Any:
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        out = other.copy()
        out.update(self)
        return out

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self


name_classes_after(globals(), "torch.nn.modules.container")
