"""The element cap: the largest tensor the engine will allocate, checked before allocating.

Creation functions check the shapes they are given; `apply_op` checks the output size it can
predict from its inputs (broadcasting, matrix products, target shapes of `expand`-like ops,
concatenations). `set_max_elements` lets the CLI pass `--max-elements`. Pure Python: no numpy here.
"""

from __future__ import annotations

import math
import os
from typing import Any

DEFAULT_MAX_ELEMENTS = 2**27  # 1 GiB of float64
_MATMUL_OPS = frozenset({"mm", "bmm", "matmul", "matmul_nd", "addmm", "mv", "dot", "baddbmm"})
_OUTER_OPS = frozenset({"outer", "ger", "kron"})


def _machine_default() -> int:
    """2**27 elements, or fewer on a machine with little memory (a tensor may be copied a few
    times while an op runs: keep one float64 tensor under a sixteenth of the RAM)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return DEFAULT_MAX_ELEMENTS
    return max(2**20, min(DEFAULT_MAX_ELEMENTS, memory // (8 * 16)))


class _Cap:
    max_elements: int = _machine_default()


def set_max_elements(count: int) -> None:
    """Set the cap (`--max-elements`): tensors of more elements are refused before allocation."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"the element cap must be a positive integer, not {count!r}")
    _Cap.max_elements = count


def get_max_elements() -> int:
    return _Cap.max_elements


def check_elements(count: int, shape: Any = None) -> None:
    """Raise RuntimeError when a tensor of `count` elements (of `shape`, if known) is too big."""
    if count > _Cap.max_elements:
        what = f"of shape [{', '.join(str(int(s)) for s in shape)}] " if shape is not None else ""
        raise RuntimeError(
            f"refusing to allocate a tensor {what}with {count} elements: more than the limit "
            f"of {_Cap.max_elements} elements"
        )


def check_shape(shape: Any) -> None:
    """Check a shape given to a creation function (negative sizes are reported elsewhere)."""
    dims = [int(s) for s in shape]
    check_elements(math.prod(max(d, 0) for d in dims), dims)


def broadcast_count(*shapes: tuple) -> int:
    """Elements of the broadcast of `shapes` (size-1 dims stretch; mismatches are left to the
    op itself, which reports them as PyTorch does)."""
    ndim = max(len(shape) for shape in shapes)
    count = 1
    for axis in range(1, ndim + 1):
        sizes = [shape[-axis] if axis <= len(shape) else 1 for shape in shapes]
        count *= 0 if 0 in sizes else max(sizes)  # a 0 broadcasts with 1s to 0
    return count


def check_broadcast_arrays(a: Any, b: Any) -> None:
    """Refuse broadcasting numpy arrays `a` and `b` to more elements than the cap."""
    if (a.size or 1) * (b.size or 1) > _Cap.max_elements:  # a bound of the broadcast's size
        check_broadcast(a.shape, b.shape)


def check_broadcast(*shapes: tuple) -> None:
    count = broadcast_count(*shapes)
    if count > _Cap.max_elements:
        check_elements(count)


def _shape(data: Any) -> tuple:
    return getattr(data, "shape", ())


def _extent(data: Any) -> int:
    """The product of an input's non-zero dims: its size, except that an empty input counts
    by the dims it still has (`(n, 0) @ (0, m)` and a sum over the 0 dim are that large)."""
    return math.prod(d for d in _shape(data) if d)


def _padded_count(shape: tuple, pad: Any) -> int:
    """Elements after `pad` = (before, after) pairs from the last dim backwards."""
    dims = list(shape)
    for k in range(min(len(pad) // 2, len(dims))):
        dims[-1 - k] = max(dims[-1 - k] + int(pad[2 * k]) + int(pad[2 * k + 1]), 0)
    return math.prod(dims)


def _reduced_count(shape: tuple, dims: Any) -> int:
    """Elements of a reduction of `shape` over `dims` (an int, a sequence, or None for all):
    the dims left (an empty input reduced over its zero-size dims can be large)."""
    ndim = len(shape)
    if dims is None:
        reduced = set(range(ndim))
    else:
        items = (dims,) if isinstance(dims, int) else tuple(dims)
        reduced = {int(d) % ndim for d in items} if ndim else set()
    return math.prod(size for axis, size in enumerate(shape) if axis not in reduced)


def check_reduction(shape: tuple, dims: Any) -> None:
    """Refuse a reduction whose output is over the cap (possible only for an empty input)."""
    if 0 in shape:
        check_elements(_reduced_count(tuple(shape), dims))


def _matmul_count(a: tuple, b: tuple) -> int:
    if not a or not b:
        return math.prod(a) * math.prod(b)
    rows = a[-2] if len(a) > 1 else 1
    columns = b[-1] if len(b) > 1 else 1
    return broadcast_count(a[:-2], b[:-2]) * rows * columns


def output_count(name: str, datas: list | tuple, params: dict | None) -> int:
    """A prediction of how many elements op `name` produces from `datas` (numpy arrays or
    numbers) and `params`, made before it runs."""
    shapes = [_shape(data) for data in datas]
    if name in _MATMUL_OPS and len(shapes) >= 2:
        return _matmul_count(shapes[-2], shapes[-1])
    if name in _OUTER_OPS:
        return math.prod(math.prod(shape) for shape in shapes)
    if name == "diag_embed" and shapes and shapes[0]:
        side = shapes[0][-1] + abs(int((params or {}).get("offset", 0)))
        return math.prod(shapes[0][:-1]) * side * side
    if params and "pad" in params and shapes:
        return _padded_count(shapes[0], params["pad"])
    if params:
        # `shape`: the target of expand-like ops (elsewhere the input's shape: no larger).
        count = 0
        target = params.get("shape")
        if isinstance(target, (tuple, list)) and all(isinstance(s, int) for s in target):
            count = math.prod(abs(s) for s in target)
        repeats = params.get("repeats")
        if isinstance(repeats, (tuple, list)) and shapes:
            padded = (1,) * (len(repeats) - len(shapes[0])) + tuple(shapes[0])
            count = max(count, math.prod(padded) * math.prod(abs(int(r)) for r in repeats))
        condition = params.get("condition")  # `where`: the condition broadcasts too
        if condition is not None:
            count = max(count, broadcast_count(_shape(condition), *shapes))
        if count:
            return count
    if name in ("stack", "cat", "concat", "concatenate", "hstack", "vstack"):
        return sum(math.prod(shape) for shape in shapes)
    if len(shapes) > 1 and any(shape != shapes[0] for shape in shapes):
        return broadcast_count(*shapes)
    if len(shapes) == 1 and 0 in shapes[0] and params and "keepdim" in params:
        return _reduced_count(shapes[0], params.get("dim"))  # a reduction of an empty input
    return 0  # the size of an existing input: already under the cap


# params that can enlarge an output beyond its inputs' sizes
SIZE_PARAMS = frozenset({"shape", "repeats", "condition", "pad", "offset"})


def _input_shape_only(datas: list | tuple, params: dict) -> bool:
    """`shape` is the input's own shape (reductions, index_select, ...): it enlarges nothing."""
    return (
        "repeats" not in params
        and "condition" not in params
        and bool(datas)
        and params.get("shape") == getattr(datas[0], "shape", None)
    )


def check_matmul(op: Any, a: Any, b: Any) -> None:
    """`check_op_output` for a product of two non-empty arrays: their sizes bound the output."""
    n, m = a.size, b.size
    if not (n and m and n * m <= _Cap.max_elements):
        check_op_output(op, (a, b), None)


def check_op_output(op: Any, datas: list | tuple, params: dict | None) -> None:
    """Refuse an op whose output would exceed the cap, before its forward allocates it."""
    if not params or SIZE_PARAMS.isdisjoint(params) or _input_shape_only(datas, params):
        # broadcasting, matmul, outer, stacking and reductions never give more elements than
        # the product of the inputs' extents: when that fits, so does the output
        if len(datas) == 1:  # (one non-empty input: its extent is its size)
            size = getattr(datas[0], "size", 1)
            if 0 < size <= _Cap.max_elements:
                return
        if math.prod(_extent(data) for data in datas) <= _Cap.max_elements:
            return
    count = output_count(op.name, datas, params)
    if count > _Cap.max_elements:
        check_elements(count)
