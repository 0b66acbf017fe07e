"""Writes that record nothing take a short way (`zero_`/`fill_` straight into the array, `+=`
and friends as one ufunc with `out=`); they give what the general in-place path gives: values,
dtypes, version counters, and the same errors."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core import apply as core_apply


def _writes() -> list:
    a = E.tensor([1.5, -2.0, 3.25])
    b = E.tensor([1, 2, 3])
    c = E.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=E.float64)
    w = E.tensor([0.5, 0.25], requires_grad=True)
    out = []
    a.zero_()
    b.fill_(2.7)
    c.fill_(E.tensor(-1.5))
    c[0].zero_()
    with E.no_grad():
        w -= 0.1 * E.tensor([1.0, 2.0])
        w += 1.0
        w *= E.tensor([2.0, 4.0])
        w.zero_()
        w.fill_(3.0)
    for t in (a, b, c, w):
        out.append((t.tolist(), str(t.dtype), t._version))
    return out


def _errors() -> list:
    messages = []
    expanded = E.ones(3).expand(2, 3)
    leaf = E.ones(2, requires_grad=True)
    for attempt in (
        lambda: expanded.zero_(),
        lambda: leaf.zero_(),
        lambda: leaf.fill_(1.0),
        lambda: E.tensor([1, 2]).fill_(2**70),
    ):
        try:
            attempt()
        except Exception as e:  # noqa: BLE001 - the message is what is compared
            messages.append((type(e).__name__, str(e)))
    with E.no_grad():
        try:
            expanded.add_(1.0)
        except RuntimeError as e:
            messages.append(("RuntimeError", str(e)))
    return messages


def test_short_writes_equal_the_general_path(monkeypatch) -> None:
    short, short_errors = _writes(), _errors()
    from autodiff_cli.engine.core.optable import OPS

    for op in OPS.values():  # no op has an in-place ufunc: every write takes the general path
        monkeypatch.setattr(op, "inplace_ufunc", None)
    monkeypatch.setattr(core_apply, "fill_without_graph", lambda target, value: False)
    from autodiff_cli.engine.ops import fills

    monkeypatch.setattr(fills, "fill_without_graph", lambda target, value: False)
    assert _writes() == short
    assert _errors() == short_errors
    assert len(short_errors) == 5


def test_zero_of_a_recorded_tensor_is_recorded() -> None:
    x = E.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.zero_()
    assert type(y.grad_fn).__name__ == "ZeroBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("write", ["zero_", "sub"])
def test_a_short_write_bumps_the_version_a_saved_tensor_checks(write: str) -> None:
    w = E.tensor([1.0, 2.0], requires_grad=True)
    h = E.tensor([3.0, 4.0])
    y = (w * h).sum()
    with E.no_grad():
        if write == "zero_":
            h.zero_()
        else:
            h -= 1.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    assert np.all(np.isfinite(h.numpy()))
