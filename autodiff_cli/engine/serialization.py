"""`torch.save` / `torch.load` into an in-memory buffer (`io.BytesIO`), never a file.

Scripts may not touch files, so a file name is refused with a clear message; a buffer (any
object with `write`, or `read`, as PyTorch accepts) holds the bytes. The format is our own, not
PyTorch's zip of pickles, and holds only data: numbers, strings, bytes, None, tensors and
Parameters (dtype, shape, values, requires_grad), dtypes, and lists, tuples, dicts and
OrderedDicts of these, which is what `state_dict()`s and checkpoint dicts hold. Loading builds
nothing else, so loading bytes a script wrote itself can give only such values or an error.

Layout: the magic `AUTODIFF-SAVE-1\\n`, the length of a JSON header (8 bytes, little endian),
the header (the object with tensors as references to blobs), then the tensors' raw bytes.
"""

from __future__ import annotations

import collections
import json
import os
from typing import Any

import numpy as np

from .core import dtypes, limits
from .core.tensor import Tensor, _wrap
from .nn.parameter import Parameter

__all__ = ["save", "load"]

MAGIC = b"AUTODIFF-SAVE-1\n"
_MAX_DEPTH = 200
_DTYPES = {
    name: np.dtype(name)
    for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                 "bool", "complex64", "complex128")
}  # fmt: skip


def _refuse_path(f: Any, what: str) -> None:
    if isinstance(f, (str, bytes, os.PathLike)):
        raise PermissionError(
            f"torch.{what}: scripts may not {'write' if what == 'save' else 'read'} files "
            f"({f!r}); use an in-memory buffer: buffer = io.BytesIO(); torch.save(obj, buffer); "
            "buffer.seek(0); torch.load(buffer)"
        )


class _Encoder:
    def __init__(self) -> None:
        self.blobs: list[bytes] = []
        self.tensors: dict[int, int] = {}  # id(tensor) -> blob index (a tensor saved twice)
        self.keep: list[Any] = []
        self.elements = 0

    def encode(self, value: Any, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH:
            raise RecursionError(f"torch.save: more than {_MAX_DEPTH} nested levels")
        kind = type(value)
        if value is None or kind in (bool, int, str):
            return {"v": value} if kind is not str else {"s": value}
        if kind is float:
            return {"f": repr(value)}
        if isinstance(value, np.generic):
            return self.encode(value.item(), depth)
        if kind is bytes:
            return {"b": value.hex()}
        if isinstance(value, Tensor):
            return self._tensor(value)
        if isinstance(value, dtypes.dtype):
            return {"dtype": str(value.np)}
        if kind in (list, tuple):
            return {"list" if kind is list else "tuple": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, dict) and kind.__module__ in _DICT_MODULES:
            items = [
                [self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()
            ]
            ordered = isinstance(value, collections.OrderedDict)
            return {"odict" if ordered else "dict": items}
        raise TypeError(
            f"torch.save in scripts saves tensors, numbers, strings and lists, tuples and dicts "
            f"of them (a state_dict(), a checkpoint dict), not a '{kind.__name__}' object; save "
            "model.state_dict() and load it into a new model"
        )

    def _tensor(self, t: Tensor) -> dict:
        index = self.tensors.get(id(t))
        if index is None:
            data = np.ascontiguousarray(t._data)
            self.elements += data.size
            limits.check_elements(self.elements)
            index = self.tensors[id(t)] = len(self.blobs)
            self.blobs.append(data.tobytes())
            self.keep.append(t)
        data = t._data
        return {
            "tensor": index,
            "dtype": str(data.dtype),
            "shape": list(data.shape),
            "requires_grad": bool(t.requires_grad),
            "parameter": type(t).__name__ == "Parameter",
        }


_DICT_MODULES = frozenset({"builtins", "collections", "torch.nn.modules.module",
                           "autodiff_cli.engine.nn.module", "torch.optim.optimizer",
                           "autodiff_cli.engine.optim.optimizer"})  # fmt: skip


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:  # fmt: skip
    """`torch.save(obj, buffer)`: writes `obj`'s data to an in-memory buffer."""
    _refuse_path(f, "save")
    encoder = _Encoder()
    header = json.dumps(encoder.encode(obj), separators=(",", ":")).encode()
    blobs = b"".join(encoder.blobs)
    sizes = json.dumps([len(b) for b in encoder.blobs]).encode()
    payload = (
        MAGIC
        + len(header).to_bytes(8, "little")
        + header
        + len(sizes).to_bytes(8, "little")
        + sizes
        + blobs
    )
    f.write(payload)


class _Decoder:
    def __init__(self, blobs: list[bytes]) -> None:
        self.blobs = blobs
        self.made: dict[int, Tensor] = {}
        self.budget = limits.get_max_elements()  # values built (forged bytes cannot ask more)

    def decode(self, node: Any, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH or type(node) is not dict or len(node) < 1:
            raise _corrupt()
        self.budget -= 1
        if self.budget < 0:
            raise MemoryError("torch.load: the buffer holds more values than the element limit")
        if "v" in node:
            value = node["v"]
            if value is not None and type(value) not in (bool, int):
                raise _corrupt()
            return value
        if "s" in node:
            return _typed(node["s"], str)
        if "f" in node:
            return float(_typed(node["f"], str))
        if "b" in node:
            return bytes.fromhex(_typed(node["b"], str))
        if "dtype" in node and "tensor" not in node:
            return dtypes.BY_NUMPY[_DTYPES[_typed(node["dtype"], str)]]
        if "tensor" in node:
            return self._tensor(node)
        if "list" in node or "tuple" in node:
            items = [
                self.decode(v, depth + 1) for v in _typed(node.get("list", node.get("tuple")), list)
            ]
            return items if "list" in node else tuple(items)
        if "dict" in node or "odict" in node:
            out = _ordered_dict() if "odict" in node else {}
            for pair in _typed(node.get("dict", node.get("odict")), list):
                if type(pair) is not list or len(pair) != 2:
                    raise _corrupt()
                key = self.decode(pair[0], depth + 1)
                if isinstance(key, (list, dict, Tensor)):
                    raise _corrupt()
                out[key] = self.decode(pair[1], depth + 1)
            return out
        raise _corrupt()

    def _tensor(self, node: dict) -> Tensor:
        index = _typed(node["tensor"], int)
        if not 0 <= index < len(self.blobs):
            raise _corrupt()
        made = self.made.get(index)
        if made is not None:
            return made
        dtype = _DTYPES.get(_typed(node.get("dtype"), str))
        shape = tuple(_typed(s, int) for s in _typed(node.get("shape"), list))
        if dtype is None or any(s < 0 for s in shape):
            raise _corrupt()
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        limits.check_elements(count, shape)
        blob = self.blobs[index]
        if len(blob) != count * dtype.itemsize:
            raise _corrupt()
        data = np.frombuffer(blob, dtype).reshape(shape).copy()
        t = _wrap(data)
        if node.get("parameter") is True:
            t = Parameter(t, bool(node.get("requires_grad")))
        elif node.get("requires_grad") is True and dtype.kind in "fc":
            t.requires_grad_(True)
        self.made[index] = t
        return t


def _ordered_dict() -> dict:
    """PyTorch's loaded state_dict: a `collections.OrderedDict`."""
    return collections.OrderedDict()


def _typed(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise _corrupt()
    return value


def _corrupt() -> RuntimeError:
    return RuntimeError("torch.load: the buffer does not hold data written by torch.save")


def _read_exact(f: Any, count: int) -> bytes:
    data = f.read(count)
    if not isinstance(data, bytes):
        raise TypeError(
            f"torch.load: read() of the buffer returned {type(data).__name__}, not bytes"
        )
    if len(data) != count:
        raise _corrupt()
    return data


def load(
    f: Any,
    map_location: Any = None,
    pickle_module: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **pickle_load_args: Any,
) -> Any:
    """`torch.load(buffer)`: the object `torch.save` wrote at the buffer's position."""
    _refuse_path(f, "load")
    magic = f.read(len(MAGIC))
    if not isinstance(magic, bytes):
        raise TypeError(
            f"torch.load: read() of the buffer returned {type(magic).__name__}, not bytes"
        )
    if not magic:
        raise EOFError("Ran out of input (the buffer is at its end: call buffer.seek(0) first)")
    if magic != MAGIC:
        raise _corrupt()
    header = _read_exact(f, int.from_bytes(_read_exact(f, 8), "little"))
    sizes_text = _read_exact(f, int.from_bytes(_read_exact(f, 8), "little"))
    try:
        tree = json.loads(header)
        sizes = json.loads(sizes_text)
    except (ValueError, RecursionError):
        raise _corrupt() from None
    if type(sizes) is not list or any(type(s) is not int or s < 0 for s in sizes):
        raise _corrupt()
    blobs = [_read_exact(f, size) for size in sizes]
    try:
        return _Decoder(blobs).decode(tree)
    except (KeyError, ValueError, RecursionError):
        raise _corrupt() from None
