"""`io` for scripts: `BytesIO`, the in-memory buffer `torch.save`/`torch.load` write and read
(scripts may not open files). A buffer of our own over a `bytearray`, bounded in size, with the
methods of CPython's `io.BytesIO` that checkpoint code uses."""

from __future__ import annotations

from typing import Any

from autodiff_cli.lang.pylib.modules.registry import register_class

MAX_BYTES = 1 << 30  # what one buffer may hold (a checkpoint of ~250M float32 values)


def _as_bytes(data: Any) -> bytes:
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError(f"a bytes-like object is required, not '{type(data).__name__}'")


class BytesIO:
    """`io.BytesIO([initial_bytes])`: read, write, seek, tell, getvalue, truncate, close."""

    __slots__ = ("_data", "_pos", "_closed")

    def __init__(self, initial_bytes: Any = None) -> None:
        self._data = bytearray() if initial_bytes is None else bytearray(_as_bytes(initial_bytes))
        self._pos = 0
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("I/O operation on closed file.")

    def write(self, data: Any) -> int:
        self._check_open()
        data = _as_bytes(data)
        end = self._pos + len(data)
        if end > MAX_BYTES:
            raise MemoryError(f"io.BytesIO in scripts holds at most {MAX_BYTES} bytes")
        if self._pos > len(self._data):
            self._data.extend(bytes(self._pos - len(self._data)))
        self._data[self._pos : end] = data
        self._pos = end
        return len(data)

    def read(self, size: Any = -1) -> bytes:
        self._check_open()
        if size is None or size < 0:
            end = len(self._data)
        else:
            end = min(len(self._data), self._pos + int(size))
        out = bytes(self._data[self._pos : end]) if end > self._pos else b""
        self._pos = max(self._pos, end)
        return out

    def seek(self, pos: int, whence: int = 0) -> int:
        self._check_open()
        if not isinstance(pos, int):
            raise TypeError(f"'{type(pos).__name__}' object cannot be interpreted as an integer")
        if whence == 0:
            if pos < 0:
                raise ValueError(f"negative seek value {pos}")
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        elif whence == 2:
            self._pos = max(0, len(self._data) + pos)
        else:
            raise ValueError(f"invalid whence ({whence}, should be 0, 1 or 2)")
        return self._pos

    def tell(self) -> int:
        self._check_open()
        return self._pos

    def getvalue(self) -> bytes:
        self._check_open()
        return bytes(self._data)

    def truncate(self, size: Any = None) -> int:
        self._check_open()
        size = self._pos if size is None else int(size)
        if size < 0:
            raise ValueError(f"negative size value {size}")
        del self._data[size:]
        return size

    def close(self) -> None:
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    def readable(self) -> bool:
        self._check_open()
        return True

    writable = seekable = readable

    def flush(self) -> None:
        self._check_open()

    def __enter__(self) -> BytesIO:
        self._check_open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<_io.BytesIO object at {id(self):#x}>"


register_class(
    BytesIO,
    "write read seek tell getvalue truncate close closed readable writable seekable flush",
    module="io",
)
BytesIO.__module__ = "_io"


def make_module(namespace: Any) -> dict[str, Any]:
    return {"BytesIO": BytesIO, "SEEK_SET": 0, "SEEK_CUR": 1, "SEEK_END": 2}
