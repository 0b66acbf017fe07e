"""`--at NAME=VALUE` and `--wrt NAME` options: splitting comma lists and making leaf tensors."""

from __future__ import annotations

import keyword
import re
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.i18n import gettext as _

NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NEXT_ASSIGNMENT = re.compile(r"\s*[^\W\d]\w*\s*=(?!=)")  # Unicode names too (θ=3, 权重=2)
_OPENERS, _CLOSERS = "([{", ")]}"


class UsageError(Exception):
    """A malformed option: exit status 2."""


def split_top_level(text: str, *, only_before_assignment: bool) -> list[str]:
    """Split at commas outside brackets and quotes. With `only_before_assignment`, a comma splits
    only when `NAME=` follows it, so `x=2,w=3` is two options and `v=[1,2]`, `v=ones(2,3)` one."""
    parts, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in _OPENERS:
            depth += 1
        elif char in _CLOSERS:
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            if only_before_assignment and not _NEXT_ASSIGNMENT.match(text, index + 1):
                continue
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def matlab_rows(value: str) -> str:
    """`[1,2;3,4]` (MATLAB's and NumPy's `np.matrix` rows, `;` between rows, spaces or commas
    between elements) -> `[[1,2],[3,4]]`; any other value unchanged."""
    text = value.strip()
    if not (text.startswith("[") and text.endswith("]")) or ";" not in text:
        return value
    rows = _split_depth_one(text[1:-1], ";")
    if rows is None or len(rows) < 2:
        return value
    spelled = []
    for row in rows:
        row = row.strip()
        if not row:
            return value
        cells = split_top_level(row, only_before_assignment=False)
        if len(cells) == 1:
            cells = row.split()
        spelled.append("[" + ",".join(cell.strip() for cell in cells) + "]")
    return "[" + ",".join(spelled) + "]"


def _split_depth_one(text: str, separator: str) -> list[str] | None:
    """`text` split at `separator` outside brackets; None when one stands inside brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in _OPENERS:
            depth += 1
        elif char in _CLOSERS:
            depth -= 1
        elif char == separator:
            if depth:
                return None
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def check_name(name: str, option: str) -> str:
    if not name.isidentifier() or keyword.iskeyword(name):
        raise UsageError(f"{option}: {name!r} is not a valid variable name")
    return name


def parse_at_options(options: list[str]) -> list[tuple[str, str]]:
    """`["x=2,w=3", "v=[1,2]"]` -> `[("x", "2"), ("w", "3"), ("v", "[1,2]")]`, names checked."""
    specs: list[tuple[str, str]] = []
    for option in options:
        for part in split_top_level(option, only_before_assignment=True):
            name, sep, value = part.partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not value:
                raise UsageError(f"--at expects NAME=VALUE, got {part.strip()!r}")
            if (
                value.endswith(",")
                and len(split_top_level(value, only_before_assignment=False)) == 2
            ):
                message = _(
                    "--at {part}: a trailing comma would make a 1-element vector; write "
                    "{name}=[{value}] for a vector, or drop the comma"
                )
                raise UsageError(
                    message.format(part=repr(part.strip()), name=name, value=value[:-1].strip())
                )
            specs.append((check_name(name, f"--at {part.strip()!r}"), matlab_rows(value)))
    names = [name for name, _ in specs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise UsageError(f"--at given more than once for {', '.join(duplicates)}")
    return specs


def parse_wrt_options(options: list[str], at_names: list[str]) -> list[str]:
    """The --wrt names (all --at names when none are given), each one an --at name."""
    if not options:
        return list(at_names)
    names: list[str] = []
    for option in options:
        for part in option.split(","):
            name = check_name(part.strip(), f"--wrt {part.strip()!r}")
            if name not in at_names:
                raise UsageError(f"--wrt {name}: no --at value is given for {name!r}")
            if name not in names:
                names.append(name)
    return names


def make_tensor(value: Any, dtype: Any, *, requires_grad: bool) -> Any:
    """A fresh floating-point tensor from a number, a list or a tensor, in `dtype` (or float32
    for integer values when `dtype` is None)."""
    if isinstance(value, torch.Tensor):
        tensor = value.detach().clone()
    elif isinstance(value, bool) or not isinstance(value, (int, float, list, tuple)):
        raise TypeError(f"expected a number, a list or a tensor, got {type(value).__name__}")
    else:
        tensor = torch.tensor(value)
    if dtype is not None and tensor.dtype != dtype:
        tensor = tensor.to(dtype)
    elif not tensor.dtype.is_floating_point:
        tensor = tensor.to(torch.float32)
    return tensor.requires_grad_(requires_grad)
