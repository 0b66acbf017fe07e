"""Tensors as text for the page: small ones in full (PyTorch's repr spacing), large ones as
their shape and a summary."""

from __future__ import annotations

from typing import Any

import numpy as np

FULL_ELEMENTS = 16  # tensors with at most this many elements are shown in full
LINE_CHARS = 40  # a box's line is cut to this many characters (the panel shows it all)


def tensor_text(tensor: Any) -> str | None:
    """`[1., 4.]` for a small tensor, `shape [100, 3] · min -1.2 · max 3.4 · mean 0.51` for a
    large one, None for what is not a readable tensor (freed, odd)."""
    try:
        if tensor.numel() > FULL_ELEMENTS:
            return _summary(tensor)
        text = repr(tensor.detach())
    except Exception:  # a freed or odd object: nothing shown rather than no page
        return None
    inner = text[len("tensor(") : -1] if text.startswith("tensor(") else text
    inner = inner.split(", dtype=")[0].split(", requires_grad")[0].split(", grad_fn")[0]
    lines = inner.splitlines()
    indent = min((len(line) - len(line.lstrip()) for line in lines[1:]), default=0)
    return "\n".join([lines[0], *(line[indent:] for line in lines[1:])])


def _summary(tensor: Any) -> str:
    shape = f"shape {list(tensor.shape)}"
    array = np.asarray(tensor.detach().numpy())
    if array.dtype.kind not in "fiu" or array.size == 0:
        return shape
    values = array.astype(np.float64)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return f"{shape} · no finite value"
    return f"{shape} · min {finite.min():.4g} · max {finite.max():.4g} · mean {finite.mean():.4g}"


def one_line(text: str | None, limit: int = LINE_CHARS) -> str | None:
    """The text on one line, cut with `…` past `limit` characters."""
    if text is None:
        return None
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
