"""Library classes: the classes the standard-library modules hand to scripts, registered so that
scripts may hold them and read the attributes of their allow-list (imported by each module of
this package, which the package's `__init__` loads on first use)."""

from __future__ import annotations

from autodiff_cli.lang.sandbox import builtin_methods, typeview


def register_class(
    cls: type,
    names: str = "",
    *,
    module: str,
    base: bool = False,
    also: tuple[type, ...] = (),
) -> type:
    """Make `cls` a library class: scripts may hold it and its instances, and read `names` on
    them (with the allow-list of its builtin base: a `defaultdict` has dict's methods too).
    `base`: scripts may derive classes from it. `also`: the real classes `cls` derives from,
    which `super()` in a script subclass reaches (same names)."""
    if cls.__module__ != module:
        cls.__module__ = module
    inherited = builtin_methods.allowed_names(cls) or frozenset()
    allowed = inherited | frozenset(names.split())
    for kind in (cls, *also):
        builtin_methods.allow_methods(kind, allowed)
    typeview.register_library_class(cls, base)
    return cls
