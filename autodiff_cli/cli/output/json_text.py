"""JSON as people read it: `--json` writes non-ASCII text as itself (`"梯度"`, not
`"\\u68af\\u5ea6"`), escaping only what the output stream cannot encode (a lone surrogate, or
any non-ASCII character on an ASCII stream), so the line can always be written."""

from __future__ import annotations

import json
import re
from typing import Any

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def encodable(text: str, stream: Any) -> str:
    """`text` (JSON) with each character `stream` cannot encode written as a JSON escape."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return _NON_ASCII.sub(lambda match: _escaped(match.group(), encoding), text)
    return text


def _escaped(run: str, encoding: str) -> str:
    try:
        run.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return "".join(_one(char, encoding) for char in run)
    return run


def _one(char: str, encoding: str) -> str:
    try:
        char.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(char)[1:-1]
    return char


def dumps(value: Any, stream: Any, **options: Any) -> str:
    """`json.dumps(value)` with non-ASCII kept as itself where `stream` can encode it."""
    return encodable(json.dumps(value, ensure_ascii=False, **options), stream)
