"""PyTorch's tensor printing rules (``torch/_tensor_str.py``, PyTorch 2.13) on numpy arrays.

Every rule mirrors the PyTorch source so that ``repr`` of a Tensor is byte-identical:
one formatter per tensor (computed over the summarised data only), width alignment,
integer-valued floats printed as ``1.``, scientific switching, line wrapping against
``linewidth``, summarisation past ``threshold`` and suffix wrapping. Values are formatted as
Python floats, i.e. float32/float16 values are widened to float64 exactly as PyTorch's
``.item()``/``.tolist()`` do.

This module depends on numpy only; the Tensor class passes its ``np.ndarray`` and the
suffixes it owns (``grad_fn=<...>``, ``requires_grad=True``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from .devices import MetaArray

_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_options: dict[str, Any] = {**_PROFILES["default"], "sci_mode": None}

# numpy dtype name -> torch dtype name; dtypes absent here print their numpy name.
_TORCH_DTYPE_NAMES = {
    "bool": "torch.bool",
    "uint8": "torch.uint8",
    "uint16": "torch.uint16",
    "uint32": "torch.uint32",
    "uint64": "torch.uint64",
    "int8": "torch.int8",
    "int16": "torch.int16",
    "int32": "torch.int32",
    "int64": "torch.int64",
    "float16": "torch.float16",
    "float32": "torch.float32",
    "float64": "torch.float64",
    "complex64": "torch.complex64",
    "complex128": "torch.complex128",
}
_COMPLEX_OF_FLOAT = {"float32": "complex64", "float64": "complex128"}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """``torch.set_printoptions``; like PyTorch, every call resets ``sci_mode`` to its argument."""
    if profile in _PROFILES:
        _options.update(_PROFILES[profile])
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            _options[name] = value
    _options["sci_mode"] = sci_mode


def get_printoptions() -> dict[str, Any]:
    """``torch._tensor_str.get_printoptions``: a dict usable as ``set_printoptions(**d)``."""
    return dict(_options)


@contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options (``torch._tensor_str.printoptions``)."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


def torch_dtype_name(dtype: np.dtype) -> str:
    """``str(torch_dtype)`` for a numpy dtype, e.g. ``torch.float64``."""
    return _TORCH_DTYPE_NAMES.get(dtype.name, dtype.name)


def format_size(shape: Sequence[int]) -> str:
    """``repr(torch.Size(shape))``, e.g. ``torch.Size([2, 3])``."""
    return "torch.Size([" + ", ".join(str(int(n)) for n in shape) + "])"


def format_parameter(
    data: np.ndarray, suffixes: Sequence[str] = (), *, default_dtype: str = "float32"
) -> str:
    """``repr(nn.Parameter)``: a header line above the plain tensor repr (same indentation)."""
    return "Parameter containing:\n" + format_tensor(
        data, suffixes=suffixes, default_dtype=default_dtype
    )


def format_tensor(
    data: np.ndarray,
    *,
    suffixes: Sequence[str] = (),
    prefix: str = "tensor(",
    indent: int | None = None,
    default_dtype: str = "float32",
) -> str:
    """The full ``repr`` of a tensor holding ``data``.

    ``suffixes`` are the caller's trailing items (``grad_fn=<MulBackward0>`` or
    ``requires_grad=True``); the ``size=``/``dtype=`` items are decided here and placed
    before them, as PyTorch does. ``default_dtype`` is ``torch.get_default_dtype()``.
    """
    if not isinstance(data, np.ndarray):
        data = np.asarray(data)
    if indent is None:
        indent = len(prefix)
    dtype_name = data.dtype.name
    own_suffixes = []
    if type(data) is MetaArray:  # no values: `tensor(..., device='meta', size=(3,))`
        own_suffixes.append("device='meta'")
        own_suffixes.append(f"size={tuple(data.shape)}")
        if dtype_name != default_dtype:
            own_suffixes.append("dtype=" + torch_dtype_name(data.dtype))
        body = "..."
    elif data.size == 0:
        # No elements to infer the dtype from, so anything but the default float is shown.
        if data.ndim != 1:
            own_suffixes.append(f"size={tuple(data.shape)}")
        if dtype_name != default_dtype:
            own_suffixes.append("dtype=" + torch_dtype_name(data.dtype))
        body = "[]"
    else:
        if not _options["edgeitems"]:
            own_suffixes.append(f"size={tuple(data.shape)}")
        if dtype_name not in (
            default_dtype,
            _COMPLEX_OF_FLOAT.get(default_dtype),
            "int64",
            "bool",
        ):
            own_suffixes.append("dtype=" + torch_dtype_name(data.dtype))
        body = format_tensor_data(data, indent)
    return _add_suffixes(prefix + body, [*own_suffixes, *suffixes], indent)


def format_tensor_data(data: np.ndarray, indent: int) -> str:
    """The bracketed element text (``_tensor_str``) for a tensor printed at ``indent``."""
    if data.size == 0:
        return "[]"
    opts = _options
    summarize = data.size > opts["threshold"]
    edgeitems = opts["edgeitems"]
    if summarize and not edgeitems and data.ndim:
        return "[...]"
    shown = _summarized_data(data, edgeitems) if summarize else data
    kind = data.dtype.kind
    if kind == "c":
        formatter = _Formatter(shown.real.ravel().tolist(), True, opts)
        imag_formatter: _Formatter | None = _Formatter(shown.imag.ravel().tolist(), True, opts)
    else:
        formatter = _Formatter(shown.ravel().tolist(), kind == "f", opts)
        imag_formatter = None
    layout = _Layout(data.shape, summarize, edgeitems, opts["linewidth"], formatter, imag_formatter)
    return layout.render(shown.tolist(), 0, indent)


def _summarized_data(data: np.ndarray, edgeitems: int) -> np.ndarray:
    """The elements a summarised print shows: the first/last ``edgeitems`` along long axes."""
    index = []
    for size in data.shape:
        if size > 2 * edgeitems:
            index.append(np.r_[0:edgeitems, size - edgeitems : size])
        else:
            index.append(np.arange(size))
    return data[np.ix_(*index)] if index else data


class _Formatter:
    """PyTorch's ``_Formatter``: one number style and width shared by all elements."""

    __slots__ = ("floating", "int_mode", "sci_mode", "max_width", "precision")

    def __init__(self, values: list, floating: bool, opts: dict[str, Any]) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        self.precision = precision = opts["precision"]
        if not floating:
            self.max_width = max(1, max(len(str(value)) for value in values))
            return
        finite = [value for value in values if value != 0 and math.isfinite(value)]
        if not finite:
            return
        magnitudes = [abs(value) for value in finite]
        smallest, largest = min(magnitudes), max(magnitudes)
        self.int_mode = all(value.is_integer() for value in finite)
        sci_mode = opts["sci_mode"]
        if sci_mode is None:
            sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        self.sci_mode = sci_mode
        if sci_mode:
            spec, extra = f".{precision}e", 0
        elif self.int_mode:
            spec, extra = ".0f", 1  # room for the trailing "." of integer-valued floats
        else:
            spec, extra = f".{precision}f", 0
        self.max_width = max(len(format(value, spec)) for value in finite) + extra

    def format(self, value: Any) -> str:
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = format(value, f"{self.max_width}.{self.precision}e")
        elif self.int_mode:
            text = format(value, ".0f")
            if math.isfinite(value):
                text += "."
        else:
            text = format(value, f".{self.precision}f")
        return text.rjust(self.max_width)

    def format_complex(self, value: complex, imag_formatter: _Formatter) -> str:
        real_text = self.format(value.real)
        imag_text = (imag_formatter.format(value.imag) + "j").lstrip()
        if imag_text[0] in "+-":
            return real_text + imag_text
        return real_text + "+" + imag_text


class _Layout:
    """Nested brackets, line wrapping and ``...`` elision (``_tensor_str_with_formatter``)."""

    def __init__(
        self,
        shape: tuple[int, ...],
        summarize: bool,
        edgeitems: int,
        linewidth: int,
        formatter: _Formatter,
        imag_formatter: _Formatter | None,
    ) -> None:
        self.shape = shape
        self.summarize = summarize
        self.edgeitems = edgeitems
        self.linewidth = linewidth
        self.formatter = formatter
        self.imag_formatter = imag_formatter

    def format_value(self, value: Any) -> str:
        if self.imag_formatter is None:
            return self.formatter.format(value)
        return self.formatter.format_complex(value, self.imag_formatter)

    def render(self, items: Any, depth: int, indent: int) -> str:
        dim = len(self.shape) - depth
        if dim == 0:
            return self.format_value(items)
        elided = self.summarize and self.shape[depth] > 2 * self.edgeitems
        if dim == 1:
            return self._render_vector(items, elided, indent)
        parts = [self.render(item, depth + 1, indent + 1) for item in items]
        if elided:
            parts.insert(self.edgeitems, "...")
        return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(parts) + "]"

    def _render_vector(self, items: list, elided: bool, indent: int) -> str:
        element_length = self.formatter.max_width + 2
        if self.imag_formatter is not None:
            element_length += self.imag_formatter.max_width + 1
        per_line = max(1, math.floor((self.linewidth - indent) / element_length))
        parts = [self.format_value(item) for item in items]
        if elided:
            parts.insert(self.edgeitems, " ...")
        lines = [", ".join(parts[i : i + per_line]) for i in range(0, len(parts), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _add_suffixes(tensor_str: str, suffixes: Sequence[str], indent: int) -> str:
    """Append ``, suffix`` items, moving one to a new line when it would pass ``linewidth``."""
    linewidth = _options["linewidth"]
    pieces = [tensor_str]
    # PyTorch's own (off by two) measure of the last line, kept for identical wrapping.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            last_line_len += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)
