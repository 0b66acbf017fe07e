"""The deprecated `size_average` / `reduce` loss arguments (PyTorch's `torch.nn._reduction`)."""

from __future__ import annotations

from typing import Any


def legacy_reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """`size_average` / `reduce`, when given, mapped onto `reduction`."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"
