"""`grad_fn._saved_*` and `_raw_saved_*` are properties made with each node class
(`core/saved_values.py`), and on OpNode for what ops show besides their formulas' values
(`SHOWN_NAMES`); no node class has a `__getattr__` (tests/test_engine_fast_layer.py)."""

from __future__ import annotations

import ast
import pathlib

import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core import graph, saved_values
from autodiff_cli.engine.core.graph import OpNode

ENGINE = pathlib.Path(graph.__file__).resolve().parents[1]


def _shown_keys() -> set:
    """Every keyword given to `shows_saved(...)` or `also_shows(...)` in the engine's source."""
    keys = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name.lstrip("_") in ("shows_saved", "also_shows"):
                    keys.update(k.arg for k in node.keywords if k.arg is not None)
    return keys


def test_every_shown_name_is_a_property() -> None:
    keys = _shown_keys()
    assert {"index", "dim", "indices", "total_weight"} <= keys
    assert keys <= set(saved_values.SHOWN_NAMES)
    for key in keys:
        assert isinstance(getattr(OpNode, "_saved_" + key), property)


def test_saved_values_parameters_and_errors() -> None:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    y = a * a
    assert y.grad_fn._saved_self is a and y.grad_fn._saved_other is a
    assert repr(y.grad_fn._raw_saved_other).startswith("<torch._C._autograd.SavedTensor")
    s = a.sum(0, keepdim=True)
    assert (s.grad_fn._saved_dim, s.grad_fn._saved_keepdim) == ((0,), True)
    assert s.grad_fn._saved_self_sym_sizes == (2,)
    e = a.exp()
    assert e.grad_fn._saved_result.tolist() == e.tolist()
    idx = E.tensor([1, 0])
    g = a.gather(0, idx)
    assert g.grad_fn._saved_index.tolist() == [1, 0] and g.grad_fn._saved_dim == 0
    for node, name in (
        (y.grad_fn, "_saved_dim"),
        (y.grad_fn, "_saved_zzz"),
        (e.grad_fn, "_raw_saved_self"),
    ):
        with pytest.raises(
            AttributeError, match=f"'{type(node).__name__}' object has no attribute '{name}'"
        ):
            getattr(node, name)
        assert not hasattr(node, name)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = y.grad_fn._saved_self
