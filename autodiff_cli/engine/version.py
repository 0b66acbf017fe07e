"""`torch.__version__`: a str that compares as a version, as PyTorch's TorchVersion does
(`torch.__version__ >= "2.0"`, `< (2, 14)`)."""

from __future__ import annotations

import operator
import re
from typing import Any

_RELEASE = re.compile(r"\d+(?:\.\d+)*")


def _key(value: Any) -> tuple:
    """(release numbers padded, final-release flag) of a version string or tuple."""
    if isinstance(value, tuple):
        numbers, final = tuple(int(v) for v in value), True
    else:
        # an exact copy: a str subclass given by a script answers `strip`... as it likes
        text = str.__str__(value if isinstance(value, str) else str(value)).strip().lstrip("v")
        match = _RELEASE.match(text)
        if match is None:
            raise ValueError(f"Invalid version: '{value}'")
        numbers = tuple(int(n) for n in match.group().split("."))
        rest = text[match.end() :]
        final = not rest or rest.startswith("+") or rest.startswith(".post")
    return numbers + (0,) * (8 - len(numbers)), final


class TorchVersion(str):
    """The version string; comparisons with strings and tuples go by version order."""

    __slots__ = ()

    def _compare(self, other: Any) -> tuple[tuple, tuple] | None:
        if not isinstance(other, (str, tuple)):
            return None
        return _key(self), _key(other)

    def __lt__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] < keys[1]

    def __le__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] <= keys[1]

    def __gt__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] > keys[1]

    def __ge__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] >= keys[1]

    def __eq__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] == keys[1]

    def __ne__(self, other: Any) -> Any:
        keys = self._compare(other)
        return NotImplemented if keys is None else keys[0] != keys[1]

    __hash__ = str.__hash__


def _bounded(method: Any) -> Any:
    """A padding method of str that refuses widths no version string needs (scripts hold
    `torch.__version__`: its str methods must not allocate unbounded memory)."""

    def padded(self: TorchVersion, width: Any, *args: Any) -> str:
        if operator.index(width) > _MAX_WIDTH:
            raise ValueError(f"{method.__name__}() width larger than {_MAX_WIDTH}")
        return method(str(self), width, *args)

    padded.__name__ = method.__name__
    return padded


_MAX_WIDTH = 4096
for _method in (str.ljust, str.rjust, str.center, str.zfill, str.expandtabs):
    setattr(TorchVersion, _method.__name__, _bounded(_method))


__version__ = TorchVersion("2.13.0+cpu")  # as the CPU build prints it
