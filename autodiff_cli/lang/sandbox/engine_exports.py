"""Which names of an engine module a script's `torch.*` module holds.

A script's `torch`, `torch.nn.functional`, `torch.linalg`... are built from each engine module's
explicit export list (`__all__`), never from its globals: an engine module imports the op
machinery it is built from (op-table entries, `defop`, `apply_op`, backward formulas taking a
backend `B`, numpy kernels) under plain names, and a formula called with a backend of the script's
choosing hands back raw numpy arrays. An engine module without `__all__` exports only its public
submodules. Every exported value is then checked once more by `is_op_machinery`, so a name added
to an export list by mistake is still left out (and `tests/test_engine_exports.py` fails).
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from typing import Any

from autodiff_cli import lazy_imports

ENGINE_MODULE = "autodiff_cli.engine"
# Engine submodules scripts may import, as PyTorch names them (the rest are engine internals).
PUBLIC_SUBMODULES = frozenset(
    "nn nn.functional nn.init nn.modules nn.parameter nn.utils autograd autograd.functional "
    "autograd.function autograd.grad_mode linalg optim optim.lr_scheduler "
    "special fft random testing utils utils.data cuda backends backends.cudnn backends.mps func "
    "accelerator autograd.graph autograd.anomaly_mode profiler autograd.profiler "
    "autograd.forward_ad masked".split()
)
# Modules that are op machinery through and through: nothing defined in them at module level is
# PyTorch's API (the functions `defop` generates, `torch.abs`..., are made inside it).
MACHINERY_MODULES = frozenset(
    f"{ENGINE_MODULE}.{name}"
    for name in (
        "core.apply", "core.fast_paths", "core.optable", "core.formula_backends", "core.kernels", "ops.formula_ops",
        "ops.special_kernels", "ops.nn_backward",
    )
)  # fmt: skip


@functools.lru_cache(maxsize=1)
def _machinery() -> tuple[frozenset[int], tuple[type, ...]]:
    """Machinery by identity (defined elsewhere than `MACHINERY_MODULES`) and by type."""
    core = lazy_imports.load("autodiff_cli.engine").core  # (its modules, loaded with it)
    tensor, graph, optable = core.tensor, core.graph, core.optable
    formula_backends = core.formula_backends
    functions = (tensor._wrap, graph.make_node_class, graph.new_node)
    kinds = (optable.OpDef, formula_backends.NumpyBackend, formula_backends.TensorBackend)
    return frozenset(id(f) for f in functions), kinds


def _takes_backend(function: Any) -> bool:
    """A backward formula: `formula(B, g, *saved, **params)`, B being a backend."""
    code = getattr(function, "__code__", None)
    return code is not None and code.co_argcount > 0 and code.co_varnames[0] == "B"


def _defined_in_machinery(value: Any) -> bool:
    """A module-level function or class of a machinery module (not one it generates)."""
    if (
        not isinstance(value, (type, types.FunctionType))
        or value.__module__ not in MACHINERY_MODULES
    ):
        return False
    return vars(sys.modules[value.__module__]).get(value.__qualname__) is value


_VERDICTS: dict[int, tuple[Any, bool]] = {}  # id -> (the value, held so the id stays its own)


def is_op_machinery(value: Any) -> bool:
    """Whether `value` is part of how ops are built and run, not of PyTorch's API: an op-table
    entry, a formula backend or a formula, a numpy kernel, `defop`/`apply_op`/`_wrap`...
    Judged once per object (what decides never changes after import): every script's `import
    torch` asks again for the same ~3,000 exports, 6 ms a script before this memo."""
    known = _VERDICTS.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    verdict = _judge_machinery(value)
    _VERDICTS[id(value)] = (value, verdict)
    return verdict


def _judge_machinery(value: Any) -> bool:
    by_identity, kinds = _machinery()
    if id(value) in by_identity or isinstance(value, kinds):
        return True
    if isinstance(value, type) and issubclass(value, kinds):
        return True
    function = inspect.unwrap(value) if isinstance(value, types.FunctionType) else value
    return _takes_backend(function) or _defined_in_machinery(function)


def _is_public_submodule(parent: types.ModuleType, value: Any) -> bool:
    return (
        isinstance(value, types.ModuleType)
        and value.__name__.startswith(parent.__name__ + ".")
        and value.__name__.removeprefix(ENGINE_MODULE + ".") in PUBLIC_SUBMODULES
    )


def lazy_names(module: types.ModuleType) -> frozenset[str]:
    """The names an engine module loads on first use (`_LAZY_SUBMODULES`, `_LAZY_NAMES`) and
    has not loaded yet: a script's proxy loads each when the script first reads it."""
    attributes = vars(module)  # (not getattr: a module's `__getattr__` may load things)
    declared = (*attributes.get("_LAZY_SUBMODULES", ()), *attributes.get("_LAZY_NAMES", ()))
    return frozenset(name for name in declared if name not in attributes)


def public_attributes(module: types.ModuleType) -> dict[str, Any]:
    """The names a script's proxy of `module` holds: for an engine module, those of its `__all__`
    (other modules it names only if they are its public submodules) and its public submodules;
    for another module (`math`), its public names."""
    engine = module.__name__ == ENGINE_MODULE or module.__name__.startswith(ENGINE_MODULE + ".")
    if engine:
        names = list(getattr(module, "__all__", ()))
    else:
        names = [name for name in vars(module) if not name.startswith("_")]
    result = {}
    lazy = lazy_names(module)
    for name in names:
        if name.startswith("_") or name in lazy or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            if not _is_public_submodule(module, value):
                continue
        elif engine and is_op_machinery(value):
            continue
        result[name] = value
    # Engine submodules not listed in __all__ (torch.nn, torch.autograd...) stay reachable.
    if engine:
        for name, value in vars(module).items():
            if not name.startswith("_") and _is_public_submodule(module, value):
                result.setdefault(name, value)
    return result
