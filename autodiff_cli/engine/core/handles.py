"""The handle `register_hook` returns (tensor, node and module hooks)."""

from __future__ import annotations

import itertools
from typing import Any


class RemovableHandle:
    """Returned by `register_hook`; `remove()` takes the hook out again."""

    __slots__ = ("_hooks", "_key", "id")
    _ids = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self._hooks = hooks
        self.id = self._key = next(RemovableHandle._ids)

    def remove(self) -> None:
        self._hooks.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"
