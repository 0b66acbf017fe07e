"""Classes print from their PyTorch homes (`torch.nn.modules.conv.Conv2d`,
`torch.optim.adamw.AdamW`), which `help()`, `typename` and reprs show; each module names its own
classes at its end."""

from __future__ import annotations

from typing import Any


def name_classes_after(namespace: dict[str, Any], home: str) -> None:
    """Give the classes defined in `namespace` (a module's `globals()`) the module name `home`."""
    for value in list(namespace.values()):
        if isinstance(value, type) and value.__module__ == namespace["__name__"]:
            value.__module__ = home


def print_from(home: str, *classes: type) -> None:
    """Give `classes` the module name `home`, where `{lower}` stands for each class's name in
    lower case (`torch.optim.{lower}`: `torch.optim.sgd` for SGD)."""
    for cls in classes:
        cls.__module__ = home.replace("{lower}", cls.__name__.lower())
