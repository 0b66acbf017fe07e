"""Decisions about the terminal: whether to style output, writing to stderr, and writing text
(a child's output among it) that the stream's encoding may not take."""

from __future__ import annotations

import codecs
import os
import sys
from typing import Any, TextIO

from autodiff_cli.lang.errors import printable


def wants_color(stream: TextIO) -> bool:
    """Style `stream` only when it is a terminal, honouring NO_COLOR, FORCE_COLOR and TERM=dumb."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def can_encode(stream: TextIO, text: str) -> bool:
    """Whether `stream`'s encoding can write `text` (box-drawing glyphs on a latin-1 console)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def print_error(text: str) -> None:
    """Write a message to stderr after flushing stdout, so that the two streams keep their order.

    Control characters other than newlines and tabs are written as escapes (`\x1b`): a message
    may quote a script's text, which must not act on the terminal."""
    sys.stdout.flush()
    text = printable(text, keep_newlines=True)
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
    sys.stderr.flush()


def _one_mark_a_byte(error: UnicodeError) -> tuple[str, int]:
    """Each byte a child wrote that does not decode prints as one `?` (U+FFFD is three bytes in
    UTF-8: a child writing cut sequences had three times `--max-output` printed)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "?" * (error.end - error.start), error.end


UNDECODABLE = "autodiff.one-mark-a-byte"  # the decoders' error handler for a child's bytes
codecs.register_error(UNDECODABLE, _one_mark_a_byte)


def write_text(stream: Any, text: str) -> None:
    """Write text that may not fit the stream's encoding (replaced), then flush."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "replace").decode(encoding))
    stream.flush()
