"""Each layer class prints from its PyTorch home (`torch.nn.modules.conv.Conv2d`), which `help()`,
`typename` and reprs show; each module of `nn/modules` names its own classes at its end."""

from __future__ import annotations

from typing import Any


def name_classes_after(namespace: dict[str, Any], home: str) -> None:
    """Give the classes defined in `namespace` (a module's `globals()`) the module name `home`."""
    for value in list(namespace.values()):
        if isinstance(value, type) and value.__module__ == namespace["__name__"]:
            value.__module__ = home
