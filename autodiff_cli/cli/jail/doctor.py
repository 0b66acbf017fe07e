"""`autodiff doctor`: which protections of the jail this machine gives, and the attack battery
run inside the jail, each attack reported contained or not.

Exit status 0 when every protection is in force and every attack is contained, 1 otherwise.
The battery (`cli/jail/attacks.py`, `cli/jail/battery.py`) is imported here only, so no other
command pays for it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from autodiff_cli.cli.jail.attacks import ATTACKS
from autodiff_cli.cli.jail.battery import run_battery, supported
from autodiff_cli.cli.jail.probe import protections
from autodiff_cli.cli.output import optional
from autodiff_cli.cli.output.diagnostics import json_error
from autodiff_cli.cli.output.terminal import print_error, wants_color


def run_doctor(*, as_json: bool, jobs: int, only: Sequence[str]) -> int:
    """Probe, run the battery, report; the exit status."""
    unknown = sorted(set(only) - {attack.name for attack in ATTACKS})
    if unknown:
        return _usage(f"no such attack: {', '.join(unknown)}", as_json)
    found = protections()
    attacks = [attack for attack in ATTACKS if not only or attack.name in only]
    reason = supported()
    if reason is not None:
        return _usage(reason, as_json)
    printer = None if as_json else _Printer(len(attacks))
    if printer is not None:
        printer.protections(found)
    verdicts = run_battery(attacks, jobs=jobs, on_result=printer.attack if printer else None)
    in_force = sum(protection.in_force for protection in found)
    contained = sum(verdict.contained for verdict in verdicts)
    ok = in_force == len(found) and contained == len(verdicts)
    summary = {
        "protections": len(found),
        "in_force": in_force,
        "attacks": len(verdicts),
        "contained": contained,
        "ok": ok,
    }
    if as_json:
        _print_json(found, verdicts, summary)
    else:
        printer.summary(summary)  # type: ignore[union-attr]
    return 0 if ok else 1


def _usage(message: str, as_json: bool) -> int:
    if as_json:
        json_error("UsageError", message)
    else:
        print_error(f"autodiff doctor: error: {message}")
    return 2


def _print_json(found: list[Any], verdicts: list[Any], summary: dict[str, Any]) -> None:
    record = {
        "protections": [
            {"name": p.name, "in_force": p.in_force, "detail": p.detail} for p in found
        ],
        "attacks": [
            {
                "name": v.attack.name,
                "family": v.attack.family,
                "what": v.attack.what,
                "contained": v.contained,
                "why": v.why or None,
                "status": v.status,
                "seconds": round(v.seconds, 3),
            }
            for v in verdicts
        ],
        "summary": summary,
    }
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class _Printer:
    """Lines for a reader: Rich styles when stdout is a terminal (and not --plain); Rich
    (`output.styled`) loads only then."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.console = None
        if wants_color(sys.stdout):
            self.styled = optional("styled")
            self.console = self.styled.Console(highlight=False)

    def line(self, text: str, style: str | None = None) -> None:
        if self.console is None:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        else:
            self.console.print(self.styled.Text(text, style=style or ""))

    def protections(self, found: list[Any]) -> None:
        self.line("Protections on this machine:", "bold")
        width = max((len(p.name) for p in found), default=0)
        for protection in found:
            mark = "in force" if protection.in_force else "MISSING "
            self.line(
                f"  {mark}  {protection.name:<{width}}  {protection.detail}",
                "green" if protection.in_force else "bold red",
            )
        self.line(f"Attacks inside the jail ({self.total}):", "bold")

    def attack(self, verdict: Any) -> None:
        self.done += 1
        name = f"{verdict.attack.family}/{verdict.attack.name}"
        if verdict.contained:
            self.line(f"  contained      {name}", "green")
        else:
            self.line(f"  NOT CONTAINED  {name}: {verdict.why}", "bold red")

    def summary(self, summary: dict[str, Any]) -> None:
        text = (
            f"{summary['in_force']} of {summary['protections']} protections in force; "
            f"{summary['contained']} of {summary['attacks']} attacks contained"
        )
        self.line(text, "bold green" if summary["ok"] else "bold red")
