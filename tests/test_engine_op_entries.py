"""Every entry of the op table is complete: `defop` is the one place an op's facts are declared,
so this walks `OPS` and checks each entry carries them all — its grad_fn name and node class, a
backward formula and a rule in words per differentiable input, its aten name, its out= rule, the
Tensor attributes it declares (function, method, in-place method, operators) — and that the
tables other modules read (out_arg's rules, the profiler's names, the Tensor backend) are the
entries' own facts. The gradient test row of each differentiable op is checked by
test_engine_gradients.py (`test_every_differentiable_op_has_a_case`)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import autodiff_cli.engine as E
import autodiff_cli.engine.linalg  # noqa: F401  (declares its ops when loaded)
import autodiff_cli.engine.nn.functional  # noqa: F401
import autodiff_cli.engine.special  # noqa: F401
from autodiff_cli.engine.core import formula_backends, out_arg
from autodiff_cli.engine.core.modes import OpCall
from autodiff_cli.engine.core.optable import _METHOD_OWNERS, OPS, defop
from autodiff_cli.engine.profiler import recorder

NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
GRAD_FN = re.compile(r"^[A-Z][A-Za-z0-9_]*$")  # (DiagonalBackward0_copy)


@pytest.mark.parametrize("name", sorted(OPS))
def test_entry_is_complete(name: str) -> None:
    op = OPS[name]
    assert op.name == name and NAME.match(name)
    assert callable(op.forward)
    assert isinstance(op.aten, str) and NAME.match(op.aten), "an aten name"
    if op.grad_fn is None:  # not differentiable: no formula, no node
        assert op.grads is None and op.rules == ()
        return
    assert GRAD_FN.match(op.grad_fn), "a grad_fn name as PyTorch's"
    assert op.grads, "a formula per differentiable input"
    assert all(f is None or callable(f) for f in op.grads)
    if not op.variadic:
        assert len(op.grads) <= len(op.arg_names) or len(op.arg_names) == 2, "an input each"
    assert len(op.rules) == len(op.grads), "a rule in words per formula (for --explain)"
    assert all(isinstance(rule, str) and rule for rule in op.rules)
    for what in op.saves:  # saved values name inputs of the op or its result
        assert what == "result" or 0 <= what < max(len(op.grads), len(op.arg_names))
    assert op.node_class().__name__ == op.grad_fn


@pytest.mark.parametrize("name", sorted(OPS))
def test_declared_forms_are_bound_by_the_entry(name: str) -> None:
    op = OPS[name]
    for form in op.forms:
        assert _METHOD_OWNERS[form] == f"defop({name!r})"
        assert hasattr(E.Tensor, form)
    if op.name in op.forms:  # (`axis=`/`keepdims=` accepted by a wrapper around it)
        method = getattr(E.Tensor, op.name)
        assert op.function in (method, getattr(method, "__wrapped__", None)), "its function"
    for form in op.forms:  # a reflected or in-place operator comes with the operator itself
        if form.startswith(("__r", "__i")) and form.endswith("__"):
            assert f"__{form[3:]}" in op.forms, form


@pytest.mark.parametrize("name", sorted(OPS))
def test_side_tables_are_the_entries_facts(name: str) -> None:
    op = OPS[name]
    if op.out is not None:
        assert out_arg.OUT_RULES[name] is op.out
    if op.backend:  # `B.<name>` under create_graph runs the Tensor method
        assert op.name in op.forms
        assert getattr(formula_backends.TensorBackend, name).__name__ == name
    if op.inplace_ufunc is not None:  # `x -= y` without a graph writes with it
        assert isinstance(op.inplace_ufunc, np.ufunc)
        assert f"__i{op.name}__" in op.forms
    event = recorder._aten_name(OpCall(op, (), None, None, 0))
    assert event == op.aten


def test_backend_functions_come_from_entries() -> None:
    declared = {name for name, op in OPS.items() if op.backend}
    assert declared >= {"exp", "log", "tanh", "sigmoid", "isnan"}
    bound = {
        name
        for name, value in vars(formula_backends.TensorBackend).items()
        if isinstance(value, staticmethod) and name in OPS and OPS[name].backend
    }
    assert bound == declared


def test_out_rules_of_entries_and_functions() -> None:
    """Rules are declared where the function is: an op's with its entry, others beside them."""
    assert out_arg.OUT_RULES["mul"] is OPS["mul"].out and OPS["mul"].out.cast_copy
    assert OPS["tanh"].out.cast_copy
    assert out_arg.OUT_RULES["arange"].in_out_dtype  # a factory, not an op
    assert out_arg.OUT_RULES["outer"].named == "mul"
    with pytest.raises(RuntimeError, match="declared twice"):
        out_arg.declare_out("mul", out_arg.OutRule())
    with pytest.raises(ValueError, match="unknown check"):
        out_arg.OutRule("nearly")


def test_profiler_names_an_inplace_call_after_its_in_place_entry() -> None:
    squeeze = OPS["squeeze_dim"]
    assert recorder._aten_name(OpCall(squeeze, (), None, object(), 0)) == "squeeze_"
    assert recorder._aten_name(OpCall(OPS["mul"], (), None, object(), 0)) == "mul_"
    assert recorder._aten_name(OpCall(OPS["pow_scalar"], (), None, None, 0)) == "pow"
    # add's schema lists alpha: a recorded `x + 1` has three argument shapes, read from the entry
    add = OpCall(OPS["add_scalar"], (E.ones(2),), None, None, 0)
    assert recorder._op_shapes(add, recorder._aten_name(add)) == ((2,), (), ())


def test_binary_inplace_methods_come_from_the_entries() -> None:
    for method in ("mul_", "multiply_", "div_", "true_divide_", "add_", "sub_", "subtract_"):
        assert _METHOD_OWNERS[method].startswith("defop(")
    x = E.tensor([1.0, 2.0])
    x.mul_(3).div_(2).add_(E.tensor([1.0, 1.0]), alpha=2).sub_(0.5)
    assert x.tolist() == [3.0, 4.5]
    with pytest.raises(TypeError, match="unsupported operand type"):
        x.mul_("2")


def test_nn_declares_no_op() -> None:
    """All op entries live in engine/ops/: nn's functional layer only calls them."""
    import inspect

    for op in OPS.values():
        module = inspect.getmodule(op.forward)
        if module is not None and module.__name__.startswith("autodiff_cli.engine.nn"):
            pytest.fail(f"op {op.name} is declared in {module.__name__}")


def test_an_op_name_is_declared_once() -> None:
    """A second entry of the same name would replace the first's facts in `OPS` unseen."""
    with pytest.raises(ValueError, match="'mul' is declared twice"):
        defop("mul", "MulBackward0", lambda a, b: a * b)
