"""The REPL's completion: names and attributes read from the session's dictionaries, never by
running the session's code. Runs where the namespace lives (the session's child)."""

from __future__ import annotations

import keyword
import re
from typing import Any

from autodiff_cli.cli.repl.commands import META_NAMES, ReplState
from autodiff_cli.lang.sandbox.capabilities import ModuleProxy, exposes_attributes

_DOTTED = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)?$")


def attribute_names(obj: Any) -> list[str]:
    """Public attribute names of `obj`, found without calling anything on it: a module proxy's
    own dictionary, an object's class (properties are listed, never evaluated)."""
    if isinstance(obj, ModuleProxy):
        names = list(vars(obj)) + list(obj._proxy_lazy)  # lazy submodules too (nn, optim...)
    elif exposes_attributes(obj):
        names = [name for klass in type(obj).__mro__ for name in vars(klass)]
        instance_dict = getattr(type(obj), "__dict__", {}).get("__dict__")
        if instance_dict is not None and not isinstance(obj, type):
            names += list(object.__getattribute__(obj, "__dict__"))
    else:
        names = []
    return sorted({name for name in names if not name.startswith("_")})


def candidates(state: ReplState, text: str) -> tuple[str, list[str]]:
    """(the word being completed, the names that may complete it), read from the session's
    dictionaries without running its code. Runs where the namespace lives (the child)."""
    if text.lstrip().startswith(":") and " " not in text.strip():
        word = text.strip()[1:]
        return word, [name for name in META_NAMES if name.startswith(word)]
    match = _DOTTED.search(text)
    prefix, word = match.group(1), match.group(2) or ""
    if not prefix:
        if not word:
            return word, []
        namespace = state.namespace
        names = set(namespace) | set(namespace.builtins) | set(keyword.kwlist)
    else:
        obj = _resolve(state, prefix.rstrip(".").split("."))
        if obj is None:
            return word, []
        names = set(attribute_names(obj))
    return word, sorted(n for n in names if n.startswith(word) and not n.startswith("_"))


def _resolve(state: ReplState, parts: list[str]) -> Any:
    """The object a dotted prefix names, looking through dictionaries only (no getattr on
    objects: a property could run code, except to load a lazy submodule such as torch.nn);
    attributes of non-modules are not followed."""
    namespace = state.namespace
    if parts[0] not in namespace:
        return None
    obj = dict.__getitem__(namespace, parts[0])
    for part in parts[1:]:
        if not isinstance(obj, ModuleProxy):
            return None
        if part in vars(obj):
            obj = vars(obj)[part]
        elif part in obj._proxy_lazy:
            obj = getattr(obj, part)  # loads a lazy submodule: an import, no script code
        else:
            return None
    return obj
