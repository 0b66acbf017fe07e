"""PyTorch's argument-parser refusal of a value of the wrong type, for every op at once.

PyTorch checks the type of every argument before an op runs: `torch.sum([1.0])` is
`TypeError: sum(): argument 'input' (position 1) must be Tensor, not list`. Here the op functions
read their Tensor arguments directly (`input._data`), and checking each argument up front would
cost every call (a wrapper frame is a quarter of `torch.exp`'s time on a 0-d tensor), so the check
runs after a call failed: `wrong_argument(callee, args, kwargs)` reads which parameters of the
called function take Tensors from its annotations and names the first argument that is not one.
When it finds one, PyTorch would have refused that call before running it, so its TypeError
replaces whatever error the op ran into. The language calls it when an engine function called by
a script raises (`lang/compile/expressions.py`); engine code calls `not_tensor` for its own checks.

Annotations read (the engine's functions are annotated with PyTorch's parameter names):
`Tensor` must be a Tensor, `Tensor | None` a Tensor or None, and an unannotated (`Any`) `input`,
`self` or `other` a Tensor or a number (`torch.add(x, 2)`, `torch.pow(2, x)`).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .tensor import Tensor

ENGINE_PACKAGE = "autodiff_cli.engine"
_MUST = "tensor"  # a Tensor
_MAY_BE_NONE = "optional"  # a Tensor or None
_OPERAND = "operand"  # a Tensor or a number
_TENSOR_LIST = "tensors"  # a list or tuple of Tensors (`torch.cat(tensors)`)
_KINDS = {"Tensor": _MUST, "Tensor | None": _MAY_BE_NONE, "Optional[Tensor]": _MAY_BE_NONE}
_OPERAND_NAMES = frozenset({"input", "self", "other", "exponent", "min", "max"})
_NUMBERS = (bool, int, float, complex, np.generic)
# what PyTorch's C types are called in its messages (a Python class shows its bare name)
_C_TYPE_NAMES = {
    "dtype": "torch.dtype",
    "device": "torch.device",
    "Size": "torch.Size",
    "Generator": "torch._C.Generator",
    "finfo": "torch.finfo",
    "iinfo": "torch.iinfo",
    "layout": "torch.layout",
    "memory_format": "torch.memory_format",
}
_params_cache: dict[Any, tuple] = {}
_OUT = "*, Tensor out = None"
_BINARY = (f"Tensor input, Tensor other, {_OUT}", f"Tensor input, Number other, {_OUT}")
_MIN_MAX = (
    f"Tensor input, {_OUT}",
    f"Tensor input, Tensor other, {_OUT}",
    "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None",
)
# Ops PyTorch declares with several signatures refuse a wrong type by listing them all:
# the function form's signatures, and the method form's (None: the method names one argument).
_OVERLOADS: dict[str, tuple] = {
    **{name: (_BINARY, ("Tensor other", "Number other")) for name in (
        "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
        "not_equal", "fmod")},
    "pow": ((f"Tensor input, Tensor exponent, {_OUT}", f"Number self, Tensor exponent, {_OUT}",
             f"Tensor input, Number exponent, {_OUT}"), ("Tensor exponent", "Number exponent")),
    "clamp": ((f"Tensor input, Tensor min = None, Tensor max = None, {_OUT}",
               f"Tensor input, Number min = None, Number max = None, {_OUT}"),
              ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")),
    "lerp": ((f"Tensor input, Tensor end, Tensor weight, {_OUT}",
              f"Tensor input, Tensor end, Number weight, {_OUT}"), None),
    "max": (_MIN_MAX, None),
    "min": (_MIN_MAX, None),
}  # fmt: skip


def type_name(value: Any) -> str:
    """The type of `value` as PyTorch's messages name it: a builtin or a Python class by its
    name, numpy's and torch's own types with their module (`numpy.ndarray`, `torch.dtype`)."""
    kind = type(value)
    module = kind.__module__ or ""
    name = kind.__name__
    if module == "numpy" or module.startswith("numpy."):
        return f"numpy.{name}"
    if module.startswith(ENGINE_PACKAGE) or module == "torch" or module.startswith("torch."):
        if kind is types.FunctionType:
            return "function"
        return _C_TYPE_NAMES.get(name, name)
    if module.startswith("autodiff_cli") and isinstance(value, types.FunctionType):
        return "function"
    return name


def not_tensor(function: str, arg: str, value: Any, position: int | None = None) -> TypeError:
    """`function(): argument 'arg' (position n) must be Tensor, not <type>` (no position for an
    argument given by keyword)."""
    where = f" (position {position})" if position else ""
    return TypeError(
        f"{function}(): argument '{arg}'{where} must be Tensor, not {type_name(value)}"
    )


def wrong_argument(
    callee: Any, args: tuple, kwargs: dict | None = None, name: str | None = None
) -> TypeError | None:
    """PyTorch's TypeError for a call of an engine function (or of a Tensor's bound method)
    given a value of the wrong type where it takes a Tensor; None when every Tensor argument is
    one (or `callee` is not an engine function). `name` is the name the function was called by
    (`torch.absolute` is `abs` here; PyTorch names the op called)."""
    shift = 0
    # (exact types only: `isinstance` would ask a script object's `__class__`)
    if type(callee) is types.MethodType and issubclass(type(callee.__self__), Tensor):
        args = (callee.__self__, *args)
        callee = callee.__func__
        shift = 1  # PyTorch counts a method's positions after self
    if type(callee) is not types.FunctionType:
        return None
    params = _tensor_params(callee)
    if not params:
        return None
    shown = name or callee.__name__
    if shown.startswith("_") or not shown.isidentifier():
        shown = callee.__name__
    for index, param, kind in params:
        if index < len(args):
            value, position = args[index], index + 1 - shift
        elif kwargs and param in kwargs:
            value, position = kwargs[param], None
        else:
            continue
        if _accepts(kind, value):
            continue
        if shift and index == 0:
            return None  # an unbound call through a method: not PyTorch's argument parser
        if kind == _TENSOR_LIST:
            return _not_tensor_list(shown, value, index - shift, position)
        signatures = _OVERLOADS.get(shown.rstrip("_"), (None, None))[1 if shift else 0]
        if signatures is not None and _fitting(signatures, len(args) - shift) > 1:
            return _no_overload(shown, signatures, args[shift:], kwargs)
        arg = "input" if param == "self" else param
        return not_tensor(shown, arg, value, position)
    return None


def _not_tensor_list(name: str, value: Any, index: int, position: int | None) -> TypeError:
    """A sequence of Tensors given something else, or holding something else."""
    if type(value) is list or type(value) is tuple:
        for i, item in enumerate(value):
            if not issubclass(type(item), Tensor):
                return TypeError(
                    f"expected Tensor as element {i} in argument {index}, but got {type_name(item)}"
                )
    where = f" (position {position})" if position else ""
    return TypeError(
        f"{name}(): argument 'tensors'{where} must be tuple of Tensors, not {type_name(value)}"
    )


def _no_overload(
    name: str, signatures: tuple | None, args: tuple, kwargs: dict | None
) -> TypeError:
    """`name() received an invalid combination of arguments - got (...), but expected one of:`
    and the signatures (a method given its one argument also says why each does not match)."""
    got = [type_name(value) for value in args]
    got += [f"{key}={type_name(value)}" for key, value in (kwargs or {}).items()]
    lines = [
        f"{name}() received an invalid combination of arguments - got ({', '.join(got)}), "
        "but expected one of:"
    ]
    for signature in signatures or ():
        lines.append(f" * ({signature})")
        if len(args) == 1 and not kwargs and "," not in signature and "=" not in signature:
            lines.append(
                "      didn't match because some of the arguments have invalid types: "
                f"(!{_described(args[0])}!)"
            )
    return TypeError("\n".join(lines) + "\n")


def _fitting(signatures: tuple, n_args: int) -> int:
    """How many signatures take `n_args` positional arguments (with one, PyTorch names the
    argument: `torch.max([1.0])` is `max(): argument 'input' (position 1) must be Tensor`)."""
    count = 0
    for signature in signatures:
        params = [p for p in signature.split("*")[0].split(", ") if p.strip()]
        required = sum("=" not in p for p in params)
        count += required <= n_args <= len(params)
    return count


def _described(value: Any) -> str:
    """A value as the argument parser describes it: `list of [int, float]`, `tuple of (float,)`."""
    kind = type(value)
    if kind is list:
        return f"list of [{', '.join(type_name(item) for item in value[:32])}]"
    if kind is tuple:
        names = [type_name(item) for item in value[:32]]
        return f"tuple of ({', '.join(names)}{',' if len(names) == 1 else ''})"
    return type_name(value)


def _accepts(kind: str, value: Any) -> bool:
    value_type = type(value)
    if issubclass(value_type, Tensor):
        return True
    if kind == _MAY_BE_NONE:
        return value is None
    if kind == _TENSOR_LIST:
        return (value_type is list or value_type is tuple) and all(
            issubclass(type(item), Tensor) for item in value
        )
    if kind == _OPERAND:  # (the language's numpy scalars are of module numpy too)
        return issubclass(value_type, _NUMBERS) or (
            value_type.__module__ == "numpy" and value_type.__name__ != "ndarray"
        )
    return False


def checks_own_arguments(function: Callable) -> Callable:
    """Marks an engine function whose own checks word PyTorch's message (a function PyTorch
    writes in Python, `torch.set_rng_state`): its failed calls are not explained here."""
    function.__dict__["checks_own_arguments"] = True
    return function


def _tensor_params(function: types.FunctionType) -> tuple:
    """`(index, name, kind)` of each parameter of an engine function that takes Tensors (read
    once per function from its annotations; a keyword-only one has an index past any call's)."""
    found = _params_cache.get(function)
    if found is not None:
        return found
    found = ()
    if (function.__module__ or "").startswith(ENGINE_PACKAGE) and not function.__dict__.get(
        "checks_own_arguments"
    ):
        outer = function
        # under the engine's own wrappers (numpy keyword spellings): the op function's
        while type(function.__dict__.get("__wrapped__")) is types.FunctionType:
            function = function.__dict__["__wrapped__"]
        code = function.__code__
        annotations = function.__annotations__
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        rows = []
        for index, param in enumerate(names):
            annotation = annotations.get(param)
            kind = _KINDS.get(annotation) if isinstance(annotation, str) else None
            if kind is None and annotation in (None, "Any"):
                if param in _OPERAND_NAMES:
                    kind = _OPERAND
                elif param == "tensors":
                    kind = _TENSOR_LIST
            if kind is not None:
                rows.append((index if index < code.co_argcount else 1 << 30, param, kind))
        found = tuple(rows)
        function = outer
    if len(_params_cache) < 4096:
        _params_cache[function] = found
    return found
