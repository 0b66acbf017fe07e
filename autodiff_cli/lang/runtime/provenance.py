"""Where each graph node came from: the source text of the operation that made it (`w*x`, line
and column), and the values of its inputs that needed no gradient (the `1` of `y * x + 1`).

Recorded only while `recording()` is on — the commands that show graphs turn it on (`grad`,
`graph`, the REPL); `autodiff run` never does, so training loops pay nothing. It is an op-call
observer of the engine's `core/modes.py` (as anomaly mode's traces are): the engine learns
nothing about parsing; the notes live here, in a weak map from node to `Note`, so a node's
`repr` and `metadata` stay PyTorch's. The text comes from the innermost compiled expression on
the Python stack whose closure holds a `where` (an `errors.Span` for operators, calls and
subscripts; a statement's `Location` for `y += x`).
"""

from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.lang.errors import Location, Span

_LANG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # compiled code is here
_NOTES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
MAX_TEXT = 60  # characters of source text kept per node (longer text is cut with "…")


class Note:
    """What the graph does not keep about a node: where its operation is in the source, and
    the inputs that needed no gradient (None where the input is a tensor requiring grad; a
    number, or the shape of a larger constant tensor, otherwise), with the op's parameters."""

    __slots__ = ("where", "inputs", "params", "op")

    def __init__(self, where: Location | None, inputs: tuple, params: dict, op: Any) -> None:
        self.where = where
        self.inputs = inputs
        self.params = params
        self.op = op

    @property
    def text(self) -> str | None:
        """The operation's source text on one line (`w*x`), None without a Span."""
        where = self.where
        if type(where) is not Span:
            return None
        return _span_text(where)

    @property
    def position(self) -> tuple[str, int, int] | None:
        """(filename, line, column) of the operation."""
        if self.where is None:
            return None
        return (self.where.source.filename, self.where.line, self.where.column)

    def label(self, with_position: bool | None = None) -> str | None:
        """`w*x`, with `w*x (3:5)` for a script (by default: when the source is a file, not
        `<expr>` or `<stdin>`); a statement's line when there is no span."""
        where = self.where
        if where is None:
            return None
        if with_position is None:
            with_position = not where.source.filename.startswith("<")
        text = self.text
        if text is None:
            text = _shorten(where.source.line(where.line).strip())
        if not text:
            return None
        return f"{text} ({where.line}:{where.column})" if with_position else text


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _span_text(span: Span) -> str:
    """The source between the span's start and the end of its last token, with the brackets
    the tree does not keep (a call's `)`) completed from the text that follows."""
    lines = span.source.lines
    first, last = span.line - 1, span.end_line - 1
    if not (0 <= first <= last < len(lines)):
        return ""
    if first == last:
        text = lines[first][span.column - 1 : span.end_column - 1]
    else:
        parts = [lines[first][span.column - 1 :], *lines[first + 1 : last]]
        parts.append(lines[last][: span.end_column - 1])
        text = " ".join(part.strip() for part in parts)
    rest = lines[last][span.end_column - 1 :]
    return _shorten(text + _closing(text, rest, lines[last + 1 : last + 4]))


def _closing(text: str, rest: str, following: list[str]) -> str:
    """The closing brackets `text` leaves open, read from what follows it."""
    open_: list[str] = []
    quote = None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in _CLOSERS:
            open_.append(_CLOSERS[char])
        elif open_ and char == open_[-1]:
            open_.pop()
    if not open_:  # a call without arguments: its `()` has no token in the tree
        return "()" if rest.lstrip().startswith("()") else ""
    added = ""
    for char in rest + "".join(following):
        if not open_:
            break
        if char == open_[-1]:
            added += open_.pop()
        elif not (char.isspace() or char == ","):
            break
    return added


def note_of(node: Any) -> Note | None:
    """The note recorded for a graph node, None when it was made while not recording."""
    try:
        return _NOTES.get(node)
    except TypeError:  # not weak-referenceable: not one of our nodes
        return None


def _innermost_where() -> Location | None:
    """The `where` of the innermost compiled expression running now (the op's caller)."""
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if "where" in code.co_freevars and code.co_filename.startswith(_LANG_DIR):
            where = frame.f_locals.get("where")
            if isinstance(where, Location):
                return where
        frame = frame.f_back
    return None


def _constant(value: Any) -> Any:
    """An input needing no gradient: a number as it is, a one-element tensor as its number,
    a larger tensor as its shape (a list)."""
    if isinstance(value, (bool, int, float)):
        return value
    if getattr(value, "requires_grad", True):  # followed in the graph (or not a tensor)
        return None
    if value.numel() == 1:  # the shortest decimal of its dtype: a float32 0.1 is 0.1
        item = value.detach().numpy().reshape(-1)[0]
        return int(item) if item.dtype.kind in "biu" else float(str(item))
    return list(value.shape)


def _record(call: Any, proceed: Callable[[], Any]) -> Any:
    result = proceed()
    outputs = result if result.__class__ is tuple else (result,)
    nodes = [out.grad_fn for out in outputs if getattr(out, "grad_fn", None) is not None]
    if call.target is not None and call.target.grad_fn is not None:
        nodes.append(call.target.grad_fn)
    fresh = [node for node in nodes if node not in _NOTES]
    if fresh:
        inputs = tuple(_constant(value) for value in call.inputs)
        note = Note(_innermost_where(), inputs, dict(call.params or {}), call.op)
        for node in fresh:
            _NOTES[node] = note
    return result


_depth = [0]


@contextmanager
def recording() -> Iterator[None]:
    """Record a note for every node made inside the block (see the module's docstring)."""
    start_recording()
    try:
        yield
    finally:
        stop_recording()


def start_recording() -> None:
    """Turn recording on (nested calls count; `stop_recording` undoes one)."""
    if _depth[0] == 0:
        lazy_imports.load("autodiff_cli.engine").core.modes.push(_record)
    _depth[0] += 1


def keep_recording() -> None:
    """Turn recording on for the rest of this process (the REPL's session), once."""
    if _depth[0] == 0:
        start_recording()


def stop_all_recording() -> None:
    """Turn recording off however many blocks or sessions turned it on (the end of a REPL
    session run inside another program: its tests)."""
    while _depth[0] > 0:
        stop_recording()


def stop_recording() -> None:
    _depth[0] -= 1
    if _depth[0] == 0:
        lazy_imports.load("autodiff_cli.engine").core.modes.pop(_record)
