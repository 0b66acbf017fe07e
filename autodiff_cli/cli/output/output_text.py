"""Writing a child's collected output, piece by piece.

A child may leave up to `--max-output` bytes (64 MiB) of any text. Decoding it whole costs up to
four bytes a character (one emoji in ASCII text makes the whole string four bytes wide), escaping
it per character costs an object a character, and `json.dumps` of it twelve bytes an emoji; so the
parent never builds such a string: it decodes, escapes or quotes PIECE characters at a time, and
writes each piece as it is made. Its memory stays the output itself plus a few pieces.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import Any

from autodiff_cli.cli.output.json_text import encodable
from autodiff_cli.cli.output.terminal import UNDECODABLE, write_text
from autodiff_cli.lang.errors import printable

PIECE = 1 << 16  # characters (or bytes) handled at once

Text = str | bytes  # bytes: as a child wrote them, decoded (with replacement) as they are written


def pieces(text: Text, encoding: str = "utf-8") -> Iterator[str]:
    """`text` as strings of at most about PIECE characters; bytes are decoded with replacement
    (`?` a byte), a character split between two pieces staying whole."""
    if isinstance(text, str):
        for start in range(0, len(text), PIECE):
            yield text[start : start + PIECE]
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors=UNDECODABLE)
    view = memoryview(text)
    for start in range(0, len(view), PIECE):
        piece = decoder.decode(view[start : start + PIECE])
        if piece:
            yield piece
    tail = decoder.decode(b"", True)
    if tail:
        yield tail


def encoding_of(stream: Any) -> str:
    return getattr(stream, "encoding", None) or "utf-8"


def write_output(stream: Any, text: Text, *, escaped: bool = False) -> str:
    """Write `text` to `stream` (bytes decoded in the stream's encoding), with control
    characters shown as escapes when `escaped` (see `printable`). Returns the last character
    written ("" when none), so the caller knows whether a line is left open."""
    last = ""
    for piece in pieces(text, encoding_of(stream)):
        write_text(stream, printable(piece, keep_newlines=True) if escaped else piece)
        last = piece[-1]
    return last


def write_json_string(stream: Any, *parts: Text | None, encoding: str = "utf-8") -> None:
    """The parts joined as one JSON string (`"..."`, as `json.dumps` writes it); `null` when
    every part is None."""
    if all(part is None for part in parts):
        stream.write("null")
        return
    stream.write('"')
    for part in parts:
        for piece in pieces(part or "", encoding):
            stream.write(encodable(json.dumps(piece, ensure_ascii=False)[1:-1], stream))
    stream.write('"')
