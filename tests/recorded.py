"""Checks an expression against what PyTorch gave for it (rows recorded under /work/torchenv):
a tensor's values, dtype, shape and grad_fn name, a tuple of them, a value, or an error."""

from __future__ import annotations

import math
from typing import Any

import autodiff_cli.engine as E
import autodiff_cli.engine.linalg  # noqa: F401 - torch.linalg


def _close(ours: Any, theirs: Any, tol: float) -> bool:
    if isinstance(theirs, list):
        return (
            isinstance(ours, list)
            and len(ours) == len(theirs)
            and all(_close(o, t, tol) for o, t in zip(ours, theirs))
        )
    if isinstance(theirs, float) and math.isnan(theirs):
        return isinstance(ours, float) and math.isnan(ours)
    if isinstance(theirs, bool) or isinstance(ours, bool):
        return ours is theirs
    if isinstance(theirs, int) and not isinstance(theirs, bool):
        return isinstance(ours, int) and ours == theirs
    return math.isclose(ours, theirs, rel_tol=tol, abs_tol=tol)


def _describe(r: Any) -> tuple:
    if isinstance(r, E.Tensor):
        grad_fn = r.grad_fn.name() if r.grad_fn is not None else None
        return ("tensor", r.tolist(), str(r.dtype).replace("torch.", ""), list(r.shape), grad_fn)
    if isinstance(r, tuple):
        return ("tuple",) + tuple(_describe(x) for x in r)
    return ("value", r)


def _compare(ours: tuple, theirs: tuple) -> None:
    assert ours[0] == theirs[0], (ours, theirs)
    if theirs[0] == "tuple":
        assert len(ours) == len(theirs), (ours, theirs)
        for o, t in zip(ours[1:], theirs[1:]):
            _compare(o, t)
    elif theirs[0] == "tensor":
        assert ours[2:] == theirs[2:], (ours, theirs)
        tol = 1e-4 if theirs[2] in ("float32", "float16") else 1e-9
        assert _close(ours[1], theirs[1], tol), (ours[1], theirs[1])
    else:
        assert _close(ours[1], theirs[1], 1e-9) if isinstance(theirs[1], float) else ours == theirs


def check_recorded(expr: str, expected: tuple) -> None:
    """`expr` evaluated with the engine as `torch` (and `t` for torch.tensor) gives `expected`."""
    names = {"torch": E, "t": E.tensor, "inf": math.inf, "nan": math.nan}
    if expected[0] == "error":
        try:
            result = eval(expr, names)  # noqa: S307 - the table's own expressions
        except Exception as e:  # noqa: BLE001 - the type is what is checked
            assert (type(e).__name__, str(e)) == expected[1:]
            return
        raise AssertionError(f"no error; got {_describe(result)}")
    _compare(_describe(eval(expr, names)), expected)  # noqa: S307
