"""Which protections of the jail this machine gives (for `autodiff doctor` and `--isolation`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Protection:
    """One protection: its name (`namespaces`, `empty root`, `landlock`, `seccomp`, ...),
    whether a jailed child gets it here, and a detail for the reader (why not, which ABI)."""

    name: str
    in_force: bool
    detail: str


def protections() -> list[Protection]:
    """What a jailed child gets on this machine, found by jailing a throw-away child."""
    raise NotImplementedError("filled in by the jail rewrite")
