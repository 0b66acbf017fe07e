"""`copy` for scripts: `copy.copy` and `copy.deepcopy` written as a walk over the types scripts
may copy (numbers, strings, containers, the `collections` classes, tensors, modules, optimizers
and schedulers, script class instances); Python's copy machinery, which calls `__reduce_ex__`
on whatever it is given, is never used. Anything else is a TypeError. The walk is bounded in
depth and in the elements it copies, and stops at an interrupt."""

from __future__ import annotations

import collections as _collections
import sys
import types
from collections.abc import Callable
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.lang import limits
from autodiff_cli.lang.pylib.modules.collections_module import Counter, deque
from autodiff_cli.lang.sandbox import typeview

MAX_DEPTH = 500  # nesting levels a copy walks (CPython's own limit is the recursion limit)

# Values copied as themselves (immutable, or shared by CPython's deepcopy as well).
_ATOMIC = frozenset({
    type(None), bool, int, float, complex, str, bytes, range, slice, type(Ellipsis),
    type(NotImplemented), types.FunctionType, types.BuiltinFunctionType, property, type,
})  # fmt: skip
_UNPICKLABLE = frozenset({"generator", "module", "ModuleProxy", "coroutine", "frame"})
_DICTS = (dict, _collections.OrderedDict, _collections.defaultdict, Counter)
_SIZED = frozenset({list, tuple, set, frozenset, deque, bytearray})


def _engine() -> tuple[type, type, tuple[type, ...], tuple[type, ...]]:
    """Tensor, Parameter, the engine classes whose instances copy as their attributes (those
    loaded: a class not imported has no instance), and the engine's immutable values."""
    engine = lazy_imports.load("autodiff_cli.engine")
    loaded = sys.modules.get
    nn_module, parameter = loaded(_NN + "module"), loaded(_NN + "parameter")
    optimizer, schedules = loaded(_OPTIM + "optimizer"), loaded(_OPTIM + "lr_scheduler")
    objects = tuple(
        getattr(module, name)
        for module, name in ((nn_module, "Module"), (optimizer, "Optimizer"),
                             (schedules, "LRScheduler"))
        if module is not None
    )  # fmt: skip
    param = parameter.Parameter if parameter is not None else engine.Tensor
    atomic = (type(engine.float32), type(engine.device("cpu")), engine.Size)
    return engine.Tensor, param, objects, atomic


_NN = "autodiff_cli.engine.nn."
_OPTIM = "autodiff_cli.engine.optim."


def _engine_dicts() -> tuple[type, ...]:
    """The engine's dict classes that are loaded (`OrderedDict` of state dicts, an optimizer's
    `defaultdict` state)."""
    found = []
    for module, name in ((_NN + "module", "OrderedDict"), (_OPTIM + "optimizer", "defaultdict")):
        loaded = sys.modules.get(module)
        if loaded is not None:
            found.append(getattr(loaded, name))
    return tuple(found)


class _Depth:
    """Nesting levels of the copies under way (a script `__deepcopy__` starts a nested walk)."""

    levels = 0


class _Walk:
    """One `deepcopy` call: its memo, depth and element budget."""

    def __init__(self, memo: dict) -> None:
        self.memo = memo
        self.budget = limits.max_elements()
        keep = memo.setdefault(id(memo), [])  # originals stay alive while memo does, as CPython
        self.keep: list[Any] = keep if type(keep) is list else []
        self.tensor, self.parameter, self.objects, self.engine_atomic = _engine()
        self.dicts = (*_DICTS, *_engine_dicts())

    def copy(self, value: Any) -> Any:
        if limits.Interrupt.pending is not None:
            limits.raise_interrupt()
        found = self.memo.get(id(value), _MISSING)
        if found is not _MISSING:
            return found
        kind = type(value)
        if kind in _ATOMIC or isinstance(value, (type, typeview.TypeStandIn, *self.engine_atomic)):
            return value
        self.budget -= 1 + (len(value) if kind in _SIZED or kind in self.dicts else 0)
        if self.budget < 0:
            raise MemoryError("copy.deepcopy: too many elements to copy")
        if _Depth.levels >= MAX_DEPTH:
            raise RecursionError(f"copy.deepcopy: more than {MAX_DEPTH} nested levels")
        _Depth.levels += 1
        try:
            result = self._copy_new(value, kind)
        finally:
            _Depth.levels -= 1
        if result is not value:
            self.memo[id(value)] = result
            self.keep.append(value)
        return result

    def _copy_new(self, value: Any, kind: type) -> Any:
        if isinstance(value, self.tensor):
            return self._tensor(value)
        if kind is list:
            out: Any = []
            self.memo[id(value)] = out
            out.extend(self.copy(item) for item in value)
            return out
        if kind in (tuple, frozenset) or _is_namedtuple(kind):
            items = [self.copy(item) for item in value]
            if all(a is b for a, b in zip(items, value, strict=True)):
                return value  # as CPython: a tuple of atoms is itself
            found = self.memo.get(id(value), _MISSING)  # a cycle through a list made it already
            if found is not _MISSING:
                return found
            return kind(*items) if kind is not tuple and kind is not frozenset else kind(items)
        if kind is set:
            return {self.copy(item) for item in value}
        if kind in self.dicts:
            return self._dict(value, kind)
        if kind is deque:
            out = deque(maxlen=value.maxlen)
            self.memo[id(value)] = out
            out.extend(self.copy(item) for item in value)
            return out
        if kind is bytearray:
            return bytearray(value)
        return self._object(value, kind)

    def _dict(self, value: dict, kind: type) -> dict:
        factory = issubclass(kind, _collections.defaultdict)
        out = kind(value.default_factory) if factory else kind()
        self.memo[id(value)] = out
        for key, item in value.items():
            out[self.copy(key)] = self.copy(item)
        extra = getattr(value, "__dict__", None)  # e.g. a state_dict's `_metadata`
        if extra:
            out.__dict__.update({name: self.copy(item) for name, item in extra.items()})
        return out

    def _tensor(self, value: Any) -> Any:
        if not value.is_leaf:
            raise RuntimeError(_NOT_LEAF)
        if type(value) not in (self.tensor, self.parameter):
            raise TypeError(f"copy.deepcopy in scripts cannot copy a '{type(value).__name__}'")
        self.budget -= value.numel()
        if self.budget < 0:
            raise MemoryError("copy.deepcopy: too many elements to copy")
        out = type(value).__deepcopy__(value, self.memo)
        if type(value) is self.tensor and value.grad is not None:  # a Parameter's is not copied
            out.grad = self.copy(value.grad)
        return out

    def _object(self, value: Any, kind: type) -> Any:
        script = _script_method(kind, "__deepcopy__")
        if script is not None:
            return script(value, self.memo)
        state = getattr(value, "__dict__", None)
        if type(state) is not dict or not _copyable_object(kind, self.objects):
            raise TypeError(_refused(kind, "deepcopy"))
        out = object.__new__(kind)
        self.memo[id(value)] = out
        out.__dict__.update({name: self.copy(item) for name, item in list(state.items())})
        return out


_MISSING = object()
_NOT_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def _is_namedtuple(kind: type) -> bool:
    return (
        issubclass(kind, tuple) and kind in typeview.LIBRARY_CLASSES and kind.__bases__ == (tuple,)
    )


def _script_method(kind: type, name: str) -> Callable[..., Any] | None:
    """A `__copy__`/`__deepcopy__` a script class defines (script code), if any."""
    for cls in kind.__mro__:
        if name in cls.__dict__:
            method = cls.__dict__[name]
            if typeview.is_script_class(cls) and _script_function(method):
                return method
            return None
    return None


def _script_function(value: Any) -> bool:
    """A function the script defined (so calling it runs script code, under the sandbox)."""
    return type(value) is types.FunctionType and bool(value.__dict__.get(typeview.SCRIPT_MARK))


def _copyable_object(kind: type, engine_objects: tuple[type, ...]) -> bool:
    """Script class instances (whose bases are script classes, `object` or engine modules,
    optimizers and schedulers) and engine modules, optimizers and schedulers."""
    if not (typeview.is_script_class(kind) or issubclass(kind, engine_objects)):
        return False
    for cls in kind.__mro__:
        if cls is object or typeview.is_script_class(cls) or issubclass(cls, engine_objects):
            continue
        return False
    return True


def _refused(kind: type, what: str) -> str:
    name = kind.__name__
    if name in _UNPICKLABLE:
        return f"cannot pickle '{'module' if name == 'ModuleProxy' else name}' object"
    return (
        f"copy.{what} in scripts cannot copy a '{name}' object (it copies numbers, strings, "
        "containers, tensors, modules, optimizers and objects of script classes)"
    )


def deepcopy(x: Any, memo: dict | None = None, _nil: Any = None) -> Any:
    """`copy.deepcopy`: a new object with copies of everything `x` holds, shared objects and
    cycles copied once."""
    if memo is None:
        memo = {}
    elif type(memo) is not dict:
        raise TypeError("copy.deepcopy: memo must be a dict")
    return _Walk(memo).copy(x)


def copy(x: Any) -> Any:
    """`copy.copy`: a new container with the same items, a new object with the same
    attributes; a tensor shares its data (a leaf, requires_grad kept) as in PyTorch."""
    kind = type(x)
    tensor, parameter, objects, engine_atomic = _engine()
    atomic = (type, typeview.TypeStandIn, *engine_atomic)
    if kind in _ATOMIC or isinstance(x, atomic) or kind in (tuple, frozenset):
        return x
    if _is_namedtuple(kind):
        return kind(*x)  # as CPython: a new instance with the same items
    if isinstance(x, tensor):
        if type(x) not in (tensor, parameter):
            raise TypeError(_refused(kind, "copy"))
        out = x.detach()
        return out.requires_grad_(x.requires_grad) if x.is_floating_point() else out
    if kind in (list, set, bytearray):
        return kind(x)
    if kind in _DICTS or kind in _engine_dicts():
        factory = issubclass(kind, _collections.defaultdict)
        out = kind(x.default_factory, x) if factory else kind(x)
        if getattr(x, "__dict__", None):
            out.__dict__.update(x.__dict__)
        return out
    if kind is deque:
        return deque(x, maxlen=x.maxlen)
    script = _script_method(kind, "__copy__")
    if script is not None:
        return script(x)
    state = getattr(x, "__dict__", None)
    if type(state) is not dict or not _copyable_object(kind, objects):
        raise TypeError(_refused(kind, "copy"))
    out = object.__new__(kind)
    out.__dict__.update(state)
    return out


def make_module(namespace: Any) -> dict[str, Any]:
    return {"copy": copy, "deepcopy": deepcopy}
