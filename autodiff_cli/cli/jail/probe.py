"""Which protections of the jail this machine gives (for `autodiff doctor` and `--isolation`).

Found by jailing a throw-away child exactly as a script's child is jailed and asking it what
held (`lockdown.REPORT`), plus two facts of the process that forks the children: whether its own
environment is clean (`clean_start`) and whether the jail is on at all (`AUTODIFF_ISOLATION`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from autodiff_cli.cli.jail import clean_start, isolation, lockdown
from autodiff_cli.cli.jail.isolation import Limits, isolation_available, run_child

# what `--isolation strict` needs: everything but Landlock, which stands in for the empty root
# where namespaces are refused
FULL_JAIL = (
    "clean environment",
    "unprivileged user",
    "user, network, IPC, UTS, cgroup namespaces",
    "PID namespace",
    "empty root",
    "no_new_privs",
    "rlimits",
    "dies with its parent",
    "seccomp allow-list",
)


@dataclass(frozen=True)
class Protection:
    """One protection: its name (`PID namespace`, `empty root`, `Landlock`, `seccomp
    allow-list`, ...), whether a jailed child gets it here, and a detail for the reader (why
    not, which ABI)."""

    name: str
    in_force: bool
    detail: str


class JailUnavailable(RuntimeError):
    """`--isolation strict` on a machine that cannot give the full jail."""


def protections() -> list[Protection]:
    """What a jailed child gets on this machine, found by jailing a throw-away child."""
    clean = not clean_start.needed(dict(os.environ)) and isolation.isolation_available()
    detail = (
        "started by exec with only " + ", ".join(sorted(os.environ))
        if clean
        else f"holds {len(os.environ)} variables of the user's environment (no clean start)"
    )
    found = [Protection("clean environment", clean, detail)]
    if not isolation.isolation_available():
        detail = "off: scripts run in this process (AUTODIFF_ISOLATION=0, or no fork here)"
        return [*found, *(Protection(name, False, detail) for name in FULL_JAIL[1:])]
    report = _jailed_report()
    refused = report.pop("namespaces refused", None)
    for name in (*FULL_JAIL[1:], "Landlock"):
        detail = report.get(name)
        if detail is None and name in FULL_JAIL[2:5]:
            detail = f"refused by the kernel: {refused}" if refused else "not available"
        found.append(Protection(name, detail is not None, detail or "not available"))
    return found


def _jailed_report() -> dict[str, str | None]:

    def tell() -> int:
        print(json.dumps(lockdown.REPORT))
        return 0

    result = run_child(tell, Limits(timeout=30.0), stream=False)
    try:
        return json.loads(result.stdout)
    except ValueError:
        why = result.problem or result.stderr.decode("utf-8", "replace").strip()
        return {"namespaces refused": f"the probe child failed: {why}"}


def require_full_jail() -> None:
    """JailUnavailable, naming what is missing, unless every protection of `FULL_JAIL` holds."""
    if not isolation_available():
        raise JailUnavailable(
            "--isolation strict: the jail is off here (AUTODIFF_ISOLATION=0, or this system "
            "cannot fork): scripts would run in this process"
        )
    missing = [item for item in protections() if item.name in FULL_JAIL and not item.in_force]
    if missing:
        what = "; ".join(f"{item.name} ({item.detail})" for item in missing)
        raise JailUnavailable(
            f"--isolation strict: this machine does not give the full jail: {what}. "
            "Run `autodiff doctor` for details, or use --isolation best"
        )
