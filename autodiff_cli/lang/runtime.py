"""The sandboxed namespace scripts run in: whitelisted builtins, imports, resource limits."""

from __future__ import annotations

import builtins
import math
import sys
import types
from typing import Any

from autodiff_cli.lang import sandbox

ENGINE_MODULE = "autodiff_cli.engine"
ENGINE_TYPE_MODULES = ("autodiff_cli.engine", "torch")  # engine classes present as `torch.Tensor`
MAX_RECURSION_DEPTH = 1000  # script function calls, as Python's default limit
MAX_SEQUENCE_LENGTH = 10**8  # range(), and list/str/tuple repetition
MAX_POWER_BITS = 100_000  # refuse integer powers whose result needs more bits than this


class _Unbound:
    """Marks a variable slot that has no value yet."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()


class Cell:
    """A variable shared between a function and the functions nested in it."""

    __slots__ = ("v",)

    def __init__(self, value: Any = UNBOUND) -> None:
        self.v = value


class CallDepth:
    """Script function nesting, for a catchable RecursionError before Python's own limit."""

    depth = 0


# ---- limits -----------------------------------------------------------------------------


def checked_power(base: Any, exponent: Any) -> Any:
    if type(base) is int and type(exponent) is int and exponent > 0:
        if abs(base) > 1 and exponent * base.bit_length() > MAX_POWER_BITS:
            raise OverflowError("integer power too large to compute in a script")
    return base**exponent


_SEQUENCE_TYPES = (str, list, tuple)


def checked_repeat(left: Any, right: Any) -> Any:
    """`left * right`, refusing enormous list/str/tuple repetitions."""
    if isinstance(left, _SEQUENCE_TYPES) and type(right) is int:
        if len(left) * right > MAX_SEQUENCE_LENGTH:
            raise MemoryError("sequence repetition too large for a script")
    elif isinstance(right, _SEQUENCE_TYPES) and type(left) is int:
        if len(right) * left > MAX_SEQUENCE_LENGTH:
            raise MemoryError("sequence repetition too large for a script")
    return left * right


# ---- builtins ---------------------------------------------------------------------------

_PASSED_THROUGH = (
    "range len abs min max sum enumerate zip list tuple dict set float int str bool round "
    "isinstance sorted reversed any all map filter repr iter next divmod object staticmethod "
    "classmethod property Exception RuntimeError TypeError ValueError IndexError KeyError "
    "ZeroDivisionError AttributeError NameError AssertionError StopIteration "
    "NotImplementedError ArithmeticError RecursionError LookupError UnboundLocalError "
    "ImportError ModuleNotFoundError OverflowError MemoryError BaseException frozenset slice "
    "callable hash chr ord bin hex oct format complex"
).split()


def _script_range(*args: Any) -> range:
    result = range(*args)
    if len(result) > MAX_SEQUENCE_LENGTH:
        raise MemoryError(f"range() of {len(result)} items is too large for a script")
    return result


def _script_type(*args: Any) -> type:
    if len(args) != 1:
        raise TypeError("type() takes 1 argument in scripts")
    return type(args[0])


def _script_pow(base: Any, exponent: Any, modulo: Any = None) -> Any:
    if modulo is not None:
        return pow(base, exponent, modulo)
    return checked_power(base, exponent)


_NO_DEFAULT = object()


def _script_getattr(obj: Any, name: str, default: Any = _NO_DEFAULT) -> Any:
    """`getattr` through the sandbox's attribute checker."""
    if not isinstance(name, str):
        raise TypeError("attribute name must be string")
    try:
        return sandbox.make_getter(name)(obj)
    except AttributeError:
        if default is _NO_DEFAULT:
            raise
        return default


def _script_format(value: Any, spec: str = "") -> str:
    return format(value, spec)


def _make_print(namespace: Namespace):  # noqa: ANN202
    def print(*values: Any, sep: str | None = " ", end: str | None = "\n", flush: bool = False):  # noqa: A001
        stream = namespace.stdout if namespace.stdout is not None else sys.stdout
        builtins.print(*values, sep=sep, end=end, file=stream, flush=flush)

    return print


def make_builtins(namespace: Namespace) -> dict[str, Any]:
    table = {name: getattr(builtins, name) for name in _PASSED_THROUGH}
    table.update(
        print=_make_print(namespace),
        range=_script_range,
        type=_script_type,
        pow=_script_pow,
        format=_script_format,
        hasattr=sandbox.safe_hasattr,
        getattr=_script_getattr,
        super=super,
        NotImplemented=NotImplemented,
        Ellipsis=Ellipsis,
    )
    return table


# ---- the namespace and imports ----------------------------------------------------------


class Namespace(dict):
    """A script's global variables; unknown names fall back to the whitelisted builtins."""

    def __init__(self) -> None:
        super().__init__()
        self.stdout: Any = None
        self.builtins = make_builtins(self)
        self._proxies: dict[int, sandbox.ModuleProxy] = {}
        self["__name__"] = "__main__"

    def __missing__(self, name: str) -> Any:
        return self.builtins[name]

    def __repr__(self) -> str:
        return f"<script namespace with {len(self)} names>"

    # Modules -------------------------------------------------------------------------------

    def module_proxy(self, module: types.ModuleType, name: str) -> sandbox.ModuleProxy:
        proxy = self._proxies.get(id(module))
        if proxy is None:
            proxy = sandbox.ModuleProxy(name, {})
            self._proxies[id(module)] = proxy
            for key, value in _public_attributes(module).items():
                if isinstance(value, types.ModuleType):
                    value = self.module_proxy(value, f"{name}.{key}")
                setattr(proxy, key, value)
        return proxy

    def root_module(self, name: str) -> sandbox.ModuleProxy:
        if name == "torch":
            import importlib

            return self.module_proxy(importlib.import_module(ENGINE_MODULE), "torch")
        if name == "math":
            return self.module_proxy(math, "math")
        raise ModuleNotFoundError(f"No module named '{name}'")

    def import_module(self, dotted: str) -> Any:
        """The proxy for `torch`, `torch.nn.functional`, `math`...; anything else is refused."""
        first, *rest = dotted.split(".")
        module: Any = self.root_module(first)
        path = first
        for part in rest:
            path = f"{path}.{part}"
            module = getattr(module, part, None) if sandbox.name_allowed(part) else None
            if not isinstance(module, sandbox.ModuleProxy) and not _is_engine_object(module):
                raise ModuleNotFoundError(f"No module named '{path}'")
        return module


def _is_engine_object(value: Any) -> bool:
    return value is not None and (type(value).__module__ or "").startswith(ENGINE_TYPE_MODULES)


def _public_attributes(module: types.ModuleType) -> dict[str, Any]:
    """A module's public names, without other modules it merely imported (numpy, os...)."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name in vars(module) if not name.startswith("_")]
    result = {}
    for name in names:
        if name.startswith("_") or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            if not value.__name__.startswith(module.__name__ + "."):
                continue
            if module.__name__ == "math":
                continue
        result[name] = value
    # Engine submodules not listed in __all__ (torch.nn, torch.autograd...) stay reachable.
    for name, value in vars(module).items():
        if (
            isinstance(value, types.ModuleType)
            and not name.startswith("_")
            and value.__name__.startswith("autodiff_cli.engine.")
            and value.__name__.startswith(module.__name__ + ".")
        ):
            result.setdefault(name, value)
    return result


def new_namespace(bare_torch: bool = False) -> Namespace:
    """A fresh script namespace; `bare_torch` also binds torch's functions, `pi` and `e`."""
    namespace = Namespace()
    if bare_torch:
        torch = namespace.root_module("torch")
        for name, value in vars(torch).items():
            if not name.startswith("_") and not isinstance(value, sandbox.ModuleProxy):
                namespace[name] = value
        namespace["torch"] = torch
        namespace["pi"] = math.pi
        namespace["e"] = math.e
    return namespace
