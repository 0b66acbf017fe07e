"""No op machinery is reachable by a public name from a script's `torch` (issue 29, hole 5).

A script once called `torch.nn.functional.div_scalar(B, x, d)`, a backward formula that engine
module imported to build its ops, with a backend of its own and got a raw numpy view back. The
script's modules are now built from the engine modules' `__all__`; these tests walk every public
name a script can reach from `torch` (its submodules, the classes in them and their public
attributes, and the objects a script makes every day) and fail on anything that builds or runs
ops: op-table entries, backends, formulas taking a backend `B`, numpy kernels, `defop`...
"""

from __future__ import annotations

import collections
import importlib
import inspect
import subprocess
import sys
import types
from pathlib import Path

import pytest

from autodiff_cli.lang.runtime.namespace import Namespace
from autodiff_cli.lang.sandbox import capabilities, engine_exports, typeview

REPO = Path(__file__).resolve().parent.parent
# Graph node classes PyTorch itself publishes (any other Node subclass is engine machinery).
PYTORCH_NODE_CLASSES = {"Node", "BackwardCFunction"}
# Names of machinery that engine modules import under plain names (a regression list).
KNOWN_MACHINERY_NAMES = {
    "div_scalar", "mul_scalar", "add_scalar", "sub_scalar", "run", "defop", "apply_op",
    "apply_unary", "apply_binary", "apply_inplace", "tensor_methods", "OPS", "SOFTMAX",
    "DIV_SCALAR", "MUL_SCALAR", "ADDMM", "kernels", "broadcast_shape", "make_node_class",
    "new_node", "NumpyBackend", "TensorBackend", "reset_global_state",
}  # fmt: skip


def _read(obj, name):
    """`obj.name` as a script reads it, or None when the sandbox refuses."""
    try:
        return capabilities.make_getter(name)(obj)
    except (AttributeError, TypeError):
        return None


def _raw_class_attributes(cls):
    """The raw values behind `cls`'s public names (what `_engine_unbound` wrappers call)."""
    for name in dir(cls):
        if not capabilities.name_allowed(name):
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        elif isinstance(raw, property):
            raw = raw.fget
        yield name, raw


def _script_torch():
    namespace = Namespace()
    torch = namespace.root_module("torch")
    # The lazily loaded submodules, and each public submodule as `import torch.x.y` gives it.
    for dotted in sorted(engine_exports.PUBLIC_SUBMODULES):
        try:
            namespace.import_module("torch." + dotted)
        except ModuleNotFoundError:
            pass
    return namespace, torch


def _everything_reachable():
    """(path, value) of every public name of every module proxy under `torch`, and of the
    public attributes of the classes and objects found there (two levels)."""
    _, torch = _script_torch()
    found, seen = [], set()
    pending = collections.deque([("torch", torch, 0)])  # breadth first: shortest paths
    while pending:
        path, obj, depth = pending.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, capabilities.ModuleProxy):
            names = [n for n in vars(obj) if not n.startswith("_proxy")]
        elif depth < 3 and (isinstance(obj, type) or typeview.is_engine_class(type(obj))):
            names = [n for n in dir(obj) if capabilities.name_allowed(n)]
            if isinstance(obj, type) and typeview.is_engine_class(obj):
                found.extend((f"{path}.{n} (raw)", raw) for n, raw in _raw_class_attributes(obj))
        else:
            continue
        for name in names:
            value = _read(obj, name)
            if value is None:
                continue
            found.append((f"{path}.{name}", value))
            if isinstance(value, (capabilities.ModuleProxy, type)) or (
                typeview.is_engine_class(type(value)) and not isinstance(value, types.MethodType)
            ):
                pending.append((f"{path}.{name}", value, depth + 1))
    return found


def _everyday_objects():
    """Objects scripts make all the time, whose public attributes must hold no machinery."""
    import autodiff_cli.engine as torch

    x = torch.ones(2, 3, requires_grad=True)
    y = (x * 2).sum()
    model = torch.nn.Linear(3, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1)
    return {
        "tensor": x,
        "grad_fn": y.grad_fn,
        "next_function": y.grad_fn.next_functions[0][0],
        "module": model,
        "optimizer": optimizer,
        "scheduler": scheduler,
        "generator": torch.Generator(),
        "dtype": torch.float32,
        "device": torch.device("cpu"),
        "size": x.shape,
        "return_types": torch.return_types,
    }


def _machinery_problem(value) -> str | None:
    if engine_exports.is_op_machinery(value):
        return "op machinery"
    function = inspect.unwrap(value) if isinstance(value, types.FunctionType) else value
    code = getattr(function, "__code__", None)
    if code is not None and code.co_argcount and code.co_varnames[0] == "B":
        return "a formula taking a backend"
    module = getattr(function, "__module__", None) or ""
    if isinstance(function, (types.FunctionType, type)) and module.startswith(
        ("autodiff_cli.engine.core.kernels", "autodiff_cli.engine.ops.formula_ops")
    ):
        return f"defined in {module}"
    if isinstance(value, type) and capabilities.is_node_class(value):
        if value.__name__ not in PYTORCH_NODE_CLASSES:
            return "a graph node class PyTorch does not publish"
    return None


def test_no_public_name_under_torch_is_op_machinery():
    found = _everything_reachable()
    paths = {path for path, _ in found}  # (a class is walked under the first path found)
    assert {"torch.nn.functional.relu", "torch.optim.SGD.step"} <= paths
    assert "torch.Tensor.add (raw)" in paths
    problems = [
        f"{path}: {problem}"
        for path, value in found
        if (problem := _machinery_problem(value)) is not None
    ]
    assert problems == []


def test_known_machinery_names_are_not_module_names():
    _, torch = _script_torch()
    offenders = []
    pending, seen = [("torch", torch)], set()
    while pending:
        path, proxy = pending.pop()
        if id(proxy) in seen:
            continue
        seen.add(id(proxy))
        for name, value in vars(proxy).items():
            if isinstance(value, capabilities.ModuleProxy):
                pending.append((f"{path}.{name}", value))
            elif name in KNOWN_MACHINERY_NAMES:
                offenders.append(f"{path}.{name}")
    assert len(seen) > 20
    assert offenders == []


def test_everyday_objects_expose_no_machinery():
    problems = []
    for label, obj in _everyday_objects().items():
        for name in dir(obj):
            if not capabilities.name_allowed(name):
                continue
            value = _read(obj, name)
            raw = getattr(value, "__func__", value)  # a bound method's function
            problem = _machinery_problem(raw)
            if problem is not None:
                problems.append(f"{label}.{name}: {problem}")
    assert problems == []


def test_every_public_engine_module_has_an_export_list():
    """A module without `__all__` would export nothing but its submodules; a module that has
    one is the only way a name becomes public, so each public module must declare it."""
    missing = []
    for dotted in sorted(engine_exports.PUBLIC_SUBMODULES | {""}):
        name = engine_exports.ENGINE_MODULE + (f".{dotted}" if dotted else "")
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        if not isinstance(getattr(module, "__all__", None), list):
            missing.append(name)
    assert missing == []


def test_a_proxy_holds_only_its_modules_exported_names():
    import autodiff_cli.engine.nn.functional as functional

    namespace = Namespace()
    proxy = namespace.import_module("torch.nn.functional")
    names = {n for n in vars(proxy) if not n.startswith("_proxy")}
    assert names <= set(functional.__all__)
    assert {"relu", "softmax", "cross_entropy", "pad", "dropout2d"} <= names
    assert hasattr(functional, "SOFTMAX")  # the engine still has it, scripts do not
    assert "SOFTMAX" not in names


def test_the_predicate_recognises_machinery():
    from autodiff_cli.engine.core import apply, formula_backends, kernels, optable
    from autodiff_cli.engine.nn import functional
    from autodiff_cli.engine.ops import formula_ops

    for value in (
        formula_ops.div_scalar, formula_ops.run, optable.defop, apply.apply_op, kernels.sigmoid,
        functional.SOFTMAX, formula_backends.NumpyBackend, formula_backends.NumpyBackend(),
        lambda B, g, x: g,
    ):  # fmt: skip
        assert engine_exports.is_op_machinery(value), value
    import autodiff_cli.engine as torch

    for value in (torch.abs, torch.sigmoid, functional.relu, torch.nn.Linear, torch.Tensor.add):
        assert not engine_exports.is_op_machinery(value), value


@pytest.mark.parametrize(
    "source",
    [
        "import torch.nn.functional as F\nF.div_scalar",
        "from torch.nn.functional import div_scalar",
        "import torch\ntorch.nn.functional.run",
        "import torch\ntorch.special.kernels",
        "import torch\ntorch.reset_global_state()",
        "from torch.nn.functional import GELU_TANH_COEFF",
    ],
)
def test_scripts_cannot_name_machinery(tmp_path, source):
    script = tmp_path / "attack.py"
    script.write_text(source + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "Error: " in done.stderr
    assert "has no attribute" in done.stderr or "cannot import" in done.stderr


def test_gradcheck_stays_the_function_when_its_module_loads() -> None:
    """A package attribute named like a submodule is replaced by the module when the submodule
    is imported; `autograd.gradcheck` is PyTorch's function, so its module has another name."""
    import importlib

    from autodiff_cli.engine import autograd

    for name in ("gradcheck", "gradgradcheck"):
        module = importlib.import_module(
            f"autodiff_cli.engine.autograd.{autograd._LAZY_NAMES[name]}"
        )
        assert getattr(autograd, name) is getattr(module, name)
        assert type(getattr(autograd, name)).__name__ == "function"
