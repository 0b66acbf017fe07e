"""The sandboxed namespace scripts run in: whitelisted builtins, imports, resource limits."""

from __future__ import annotations

import builtins
import importlib
import math
import sys
import types
from typing import Any, NamedTuple

from autodiff_cli import lazy_imports
from autodiff_cli.lang import exact, limits
from autodiff_cli.lang.errors import Location, ScriptError, Source, is_user_interrupt
from autodiff_cli.lang.limits import MAX_RECURSION_DEPTH  # noqa: F401 - re-exported
from autodiff_cli.lang.pylib import modules
from autodiff_cli.lang.runtime import script_stack
from autodiff_cli.lang.sandbox import (
    capabilities,
    engine_exports,
    nesting,
    numpy_bridge,
    reflection,
    typeview,
    withheld,
)

ENGINE_MODULE = engine_exports.ENGINE_MODULE
PUBLIC_SUBMODULES = engine_exports.PUBLIC_SUBMODULES
ENGINE_TYPE_MODULES = ("autodiff_cli.engine", "torch")  # engine classes present as `torch.Tensor`
_ANOMALY_SWITCHES = "torch.autograd.anomaly_mode"  # `detect_anomaly`, `set_detect_anomaly`


# A script frame (a list, one per call of a script function, module or class body): the global
# namespace, the return value, then the variables, numbered by the compiler (`compile/scopes`).
GLOBALS_SLOT, RETURN_SLOT, FIRST_VARIABLE_SLOT = 0, 1, 2


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


# ---- builtins ---------------------------------------------------------------------------

_PASSED_THROUGH = (
    "range len abs min max sum enumerate zip list tuple dict set float int str bool round "
    "isinstance issubclass sorted reversed any all map filter repr next divmod object "
    "staticmethod "
    "classmethod property Exception RuntimeError TypeError ValueError IndexError KeyError "
    "ZeroDivisionError AttributeError NameError AssertionError StopIteration "
    "NotImplementedError ArithmeticError RecursionError LookupError UnboundLocalError "
    "ImportError ModuleNotFoundError OverflowError MemoryError BaseException frozenset slice "
    "SyntaxError "
    "callable hash chr ord bin hex oct format complex bytes"
).split()


def _script_pow(base: Any, exponent: Any, modulo: Any = None) -> Any:
    if modulo is not None:
        return pow(base, exponent, modulo)
    return limits.checked_power(base, exponent)


def _script_format(value: Any, spec: str = "") -> str:
    if type(spec) is not str and isinstance(spec, str):
        spec = exact.text(spec)  # checked and used as the same exact copy
    limits.check_format_spec(spec)
    return format(value, spec)


def _script_sum(iterable: Any, /, start: Any = 0) -> Any:
    """`sum`; with a list/tuple `start` (concatenating sequences) the total length is checked
    before anything is joined."""
    if not isinstance(start, (list, tuple)):
        return sum(iterable, start)
    items = list(iterable)
    total = exact.length(start)
    for item in items:
        if isinstance(item, (list, tuple)):
            total += exact.length(item)
    limits.check_length(total, f"sum of '{type(start).__name__}'")
    return sum(items, start)


_script_sum.__qualname__ = _script_sum.__name__ = "sum"  # its errors name it as Python does
_NO_SENTINEL = object()


def _script_iter(source: Any, sentinel: Any = _NO_SENTINEL) -> Any:
    """`iter`; the two-argument form checks for interrupts (`list(iter(int, 1))` never ends)."""
    if sentinel is _NO_SENTINEL:
        return iter(source)
    if not callable(source):
        raise TypeError("iter(v, w): v must be callable")
    return _call_until(source, sentinel)


def _call_until(function: Any, sentinel: Any) -> Any:
    interrupt = limits.Interrupt
    while True:
        if interrupt.pending is not None:
            limits.raise_interrupt()
        value = function()
        if value == sentinel:
            return
        yield value


def _make_print(namespace: Namespace):  # noqa: ANN202
    def print(*values: Any, sep: str | None = " ", end: str | None = "\n", flush: bool = False):  # noqa: A001
        stream = namespace.stdout if namespace.stdout is not None else sys.stdout
        builtins.print(*values, sep=sep, end=end, file=stream, flush=flush)

    return print


def make_builtins(
    namespace: Namespace, run_expression: reflection.ExpressionRunner | None
) -> dict[str, Any]:
    table = {name: getattr(builtins, name) for name in _PASSED_THROUGH}
    table.update(
        print=_make_print(namespace),
        range=limits.checked_range,
        iter=_script_iter,
        type=typeview.script_type,
        pow=_script_pow,
        format=_script_format,
        hasattr=capabilities.safe_hasattr,
        getattr=reflection.script_getattr,
        setattr=reflection.script_setattr,
        delattr=reflection.script_delattr,
        id=reflection.script_id,
        eval=reflection.make_eval(namespace, run_expression),
        super=capabilities.script_super,
        hash=nesting.checked_hash,
        sum=_script_sum,
        map=nesting.ScriptMap,
        filter=nesting.ScriptFilter,
        zip=nesting.ScriptZip,
        enumerate=nesting.ScriptEnumerate,
        NotImplemented=NotImplemented,
        Ellipsis=Ellipsis,
    )
    table.update(modules.BUILTIN_NAMES)  # the warning categories
    return table


# ---- the namespace and imports ----------------------------------------------------------


class Namespace(dict):
    """A script's global variables; unknown names fall back to the whitelisted builtins."""

    def __init__(self, run_expression: reflection.ExpressionRunner | None = None) -> None:
        """`run_expression` runs the script's `eval` (the compiler's; without it `eval` fails)."""
        super().__init__()
        self.stdout: Any = None
        self.builtins = make_builtins(self, run_expression)
        self._proxies: dict[int, capabilities.ModuleProxy] = {}
        self["__name__"] = "__main__"

    def __missing__(self, name: str) -> Any:
        return self.builtins[name]

    def statement_locations(self) -> list[Location | None]:
        """The running script's statement per function on the stack, innermost first (for
        library modules: where `warnings.warn` points)."""
        return script_stack.statement_locations()

    def __repr__(self) -> str:
        return f"<script namespace with {len(self)} names>"

    # Modules -------------------------------------------------------------------------------

    def module_proxy(self, module: types.ModuleType, name: str) -> capabilities.ModuleProxy:
        proxy = self._proxies.get(id(module))
        if proxy is None:
            proxy = capabilities.ModuleProxy(name, {})
            self._proxies[id(module)] = proxy
            plan = _plan_of(module)
            attributes = dict(plan.attributes)  # the submodules' places hold their modules
            for key, submodule in plan.submodules:
                attributes[key] = self.module_proxy(submodule, f"{name}.{key}")
            vars(proxy).update(attributes)
            for key in plan.lazy:
                proxy._proxy_lazy[key] = lambda key=key: self._lazy_attribute(module, key, name)
        return proxy

    def _lazy_attribute(self, module: types.ModuleType, key: str, name: str) -> Any:
        """A name the module loads on first use, loaded and vetted as `public_attributes` vets."""
        getattr(module, key)
        plan = _plan_of(module)
        value = plan.attributes.get(key)
        if value is None:
            raise AttributeError(f"module '{name}' has no attribute '{key}'")
        if isinstance(value, types.ModuleType):
            return self.module_proxy(value, f"{name}.{key}")
        return value

    def root_module(self, name: str) -> capabilities.ModuleProxy:
        if name == "torch":
            engine = importlib.import_module(ENGINE_MODULE)
            fresh = id(engine) not in self._proxies
            proxy = self.module_proxy(engine, "torch")
            if fresh:  # from_numpy, tensor, as_tensor: also for the script's numpy arrays
                for key, function in numpy_bridge.torch_functions(engine).items():
                    setattr(proxy, key, function)
                proxy.__version__ = engine.__version__
            return proxy
        if name == "numpy":  # a vetted subset over safe wrappers (preloaded in children)
            numpy_module = lazy_imports.load("autodiff_cli.lang.pylib.numpy_module")
            if id(numpy_module) not in self._proxies:
                self._proxies[id(numpy_module)] = numpy_module.make_module()
            return self._proxies[id(numpy_module)]
        if name == "math":
            proxy = self.module_proxy(math, "math")
            for key, function in limits.CHECKED_MATH.items():
                if getattr(proxy, key, None) is getattr(math, key):
                    setattr(proxy, key, function)
            return proxy
        if name in modules.NAMES:  # random, warnings, functools, itertools, collections
            return modules.module_for(self, name)
        raise ModuleNotFoundError(withheld.module_message(name), name=name)

    def import_module(self, dotted: str) -> Any:
        """The proxy for `torch`, `torch.nn.functional`, `math`...; anything else is refused."""
        first, *rest = dotted.split(".")
        module: Any = self.root_module(first)
        path = first
        for part in rest:
            path = f"{path}.{part}"
            module = getattr(module, part, None) if capabilities.name_allowed(part) else None
            if not isinstance(module, capabilities.ModuleProxy) and not _is_engine_object(module):
                raise ModuleNotFoundError(withheld.module_message(path), name=path)
        return module


class _Plan(NamedTuple):
    """What every script's proxy of one module holds, vetted once per process (not once per
    script: ~6 ms of each `import torch`): `attributes`, in `public_attributes`' order, as
    `_vetted` gives them, submodules as the modules themselves (each script gets its own proxy
    of them: `submodules`); `lazy`, the names the module loads on first use."""

    attributes: dict[str, Any]
    submodules: tuple[tuple[str, types.ModuleType], ...]
    lazy: frozenset[str]


# id(module) -> (the module, what its vetting depended on, its plan)
_PLANS: dict[int, tuple[types.ModuleType, tuple[int, int, int], _Plan]] = {}


def _plan_of(module: types.ModuleType) -> _Plan:
    """The module's plan, made again whenever the module may have changed since: what
    `public_attributes` reads is the module's dictionary and `__all__`, which only an import
    changes once the module is loaded (a lazy submodule, the extra op families bound into
    `torch`, a submodule imported over a package attribute of its name); an import grows
    `sys.modules` (no engine code rebinds an exported name otherwise)."""
    names = vars(module)
    state = (len(sys.modules), len(names), len(names.get("__all__", ())))
    known = _PLANS.get(id(module))
    if known is not None and known[0] is module and known[1] == state:
        return known[2]
    attributes = engine_exports.public_attributes(module)
    submodules = []
    for key, value in attributes.items():
        if isinstance(value, types.ModuleType):
            submodules.append((key, value))
        else:
            attributes[key] = _vetted(value)
    plan = _Plan(attributes, tuple(submodules), engine_exports.lazy_names(module))
    _PLANS[id(module)] = (module, state, plan)
    return plan


def _vetted(value: Any) -> Any:
    """What a module proxy holds for one of the module's public attributes other than a
    submodule (anomaly mode's switches: the script's own, whose traces name the script's
    lines); an engine object is registered as shared (`capabilities.share`)."""
    if isinstance(value, type) and value.__module__ == _ANOMALY_SWITCHES:
        return script_stack.script_switch(value)
    if not isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        capabilities.share(value)
    return value


def _is_engine_object(value: Any) -> bool:
    return value is not None and (type(value).__module__ or "").startswith(ENGINE_TYPE_MODULES)


# torch names a bare-torch namespace leaves to Python: the deprecated `torch.range` would take
# `for i in range(3)` from expressions (torch's other names, `sum`, `max`..., stand in well)
_BUILTINS_KEPT = frozenset({"range"})


def new_namespace(
    bare_torch: bool = False, run_expression: reflection.ExpressionRunner | None = None
) -> Namespace:
    """A fresh script namespace; `bare_torch` also binds torch's functions, `pi` and `e`;
    `run_expression` runs its `eval` (`autodiff_cli.lang.new_namespace` gives the compiler's)."""
    namespace = Namespace(run_expression)
    if bare_torch:
        torch = namespace.root_module("torch")
        for name, value in vars(torch).items():
            if (
                not name.startswith("_")
                and name not in _BUILTINS_KEPT
                and not isinstance(value, capabilities.ModuleProxy)
                and capabilities.may_hold(value)
            ):
                namespace[name] = value
        namespace["torch"] = torch
        namespace["pi"] = math.pi
        namespace["e"] = math.e
    return namespace


def script_repr(value: Any, filename: str = "<stdin>") -> str:
    """`repr(value)` for the REPL's echo. A script class's `__repr__` is script code: whatever
    it raises (but Ctrl-C), or a result that is not a str, becomes a located ScriptError."""
    try:
        text = repr(value)
        if type(text) is not str:
            raise TypeError(f"__repr__ returned non-string (type {type(text).__name__})")
    except BaseException as error:
        if is_user_interrupt(error):
            raise
        fallback = Location(Source(filename, ()), 1, 1)
        raise ScriptError.from_exception(error, fallback) from None
    return text
