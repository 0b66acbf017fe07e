"""The op table's declarations: one entry per PyTorch op, saves read from the formulas' parameter
names, one registration per Tensor method."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import autodiff_cli.engine as E
import autodiff_cli.engine.linalg  # noqa: F401  (loads lazily elsewhere; declares its ops)
import autodiff_cli.engine.nn.functional  # noqa: F401
from autodiff_cli.engine.core import optable
from autodiff_cli.engine.core.optable import OPS, _saves_of, tensor_methods


def test_each_grad_fn_is_declared_by_one_op():
    counts = Counter(
        op.grad_fn for op in OPS.values() if op.grad_fn not in (None, "NotImplemented")
    )
    assert [name for name, n in counts.items() if n > 1] == []


def test_saves_are_read_from_the_formula_parameter_names():
    def grad_self(B, g, self, other, alpha=1):
        return g * other

    def grad_other(B, g, self, other, alpha=1):
        return g * self

    assert _saves_of((grad_self, grad_other), ("self", "other"), False) == (0, 1)
    assert _saves_of((lambda B, g, result: g * result,), ("self", "other"), False) == ("result",)
    # `other` of a one-input op is a parameter (rsub's number), not a saved input
    assert _saves_of((lambda B, g, other: -g,), ("self", "other"), False) == ()
    assert _saves_of((None, lambda B, g, src, index: g), ("self", "src"), False) == (1,)


def test_formulas_of_one_op_must_name_the_same_saved_values():
    with pytest.raises(TypeError, match="different saved values"):
        _saves_of((lambda B, g, self: g, lambda B, g, other: g), ("self", "other"), False)


def test_inferred_saves_reach_the_node():
    x = E.tensor([0.5, 2.0], dtype=E.float64, requires_grad=True)
    y = E.log(x)  # LogBackward0 saves self: declared by the formula's parameter name
    assert OPS["log"].saves == (0,)
    assert np.array_equal(y.grad_fn._saved_self.detach().numpy(), [0.5, 2.0])
    r = E.exp(x)  # ExpBackward0 saves its result
    assert OPS["exp"].saves == ("result",)
    assert np.allclose(r.grad_fn._saved_result.detach().numpy(), np.exp([0.5, 2.0]))


def test_a_tensor_method_is_registered_once():
    with pytest.raises(RuntimeError, match="Tensor.exp is registered twice"):
        tensor_methods("tests", {"exp": lambda self: self})
    assert E.Tensor.exp is E.exp  # the defop's function is both


def test_defop_declares_function_method_aliases_and_inplace():
    op = OPS["asin"]
    assert op.function is E.asin is E.arcsin
    assert E.Tensor.asin is op.function and E.Tensor.arcsin is op.function
    t = E.tensor([0.25, 0.5], dtype=E.float64)
    assert E.Tensor.exp_ is not None
    t.exp_()
    assert np.allclose(t.numpy(), np.exp([0.25, 0.5]))
    assert optable._METHOD_OWNERS["exp_"] == "defop('exp')"


def test_defop_declares_the_operators_of_an_op():
    # `dunder="mul", reflected=True`: __mul__, __rmul__, __imul__; `mul` and `multiply` too
    for name in ("__mul__", "__rmul__", "__imul__", "mul", "multiply"):
        assert optable._METHOD_OWNERS[name] == "defop('mul')", name
    assert "__rsub__" not in [n for n, o in optable._METHOD_OWNERS.items() if o == "defop('sub')"]
    x = E.tensor([1.0, -2.0], requires_grad=True)
    y = 3 * (x * 2.0) * np.float64(0.5)  # int, float and numpy scalar operands
    assert y.tolist() == [3.0, -6.0] and type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    z = E.tensor([4.0, 6.0])
    z /= 2
    z -= np.float32(1.0)
    assert z.tolist() == [1.0, 2.0] and z._version == 2
    assert x.__mul__("a") is NotImplemented and x.__imul__([1]) is NotImplemented
    with pytest.raises(TypeError, match="dunder= needs the op's function="):
        optable.defop("nope", None, lambda a, b: a, dunder="nope")
    assert "nope" not in OPS


def test_the_cross_saves_fast_path_agrees_with_what_the_formulas_read():
    """`cross_saves` (apply_binary's fast path: each input saved only for the other's gradient)
    is declared; the general path derives the same from the formulas' code (`formula_reads`)."""
    from autodiff_cli.engine.core.optable import OPS

    checked = 0
    for op in OPS.values():
        if not op.grads or op.variadic:
            continue
        reads = op.formula_reads()
        assert len(reads) == len(op.grads)
        if op.cross_saves:
            assert op.saves == (0, 1) and reads == (frozenset({1}), frozenset({0})), op.name
            checked += 1
    assert checked >= 4
    assert OPS["addmm"].formula_reads() == (frozenset(), frozenset({1}), frozenset({0}))
    assert OPS["tanh"].formula_reads() == (frozenset({0}),)
