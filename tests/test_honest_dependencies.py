"""No runtime injection: a module changes another module's state only by calling it.

`state_writes` (tests/state_writes.py) reads the package's source and lists every place a module
rebinds another module's global, writes into a container another module holds, stands a module
in for another in `sys.modules`, or hands another module's setter a function or class to keep:
the ways a lower layer was made to depend on a higher one at run time (the engine's
`saved_values.raw_saved` set by `saved_hooks`, `ops/indexing.FOREIGN_ARRAYS` filled by the
language, `anomaly.set_stack_provider`, each found by this scan before they went).
"""

from __future__ import annotations

from pathlib import Path

from import_graph import write_package
from source_trees import trees_dropped  # noqa: F401  (autouse: the trees go after this module)
from state_writes import state_writes

# What must stay, each with its reason (module, the written expression).
ALLOWED = {
    # numpy's two docstring-only modules stood in for by empty ones while numpy loads: ~4 ms
    # of every command's start-up (tests/test_numpy_docs.py checks they only attach text)
    ("autodiff_cli.cli.numpy_docs", "sys.modules.setdefault"),
    ("autodiff_cli.cli.numpy_docs", "sys.modules[name]"),
}


def _key(finding: str) -> tuple[str, str]:
    where, expression = finding.split(" ", 2)[:2]
    return where.rpartition(":")[0], expression


def test_no_module_writes_another_modules_state() -> None:
    found = state_writes()
    unexplained = [finding for finding in found if _key(finding) not in ALLOWED]
    assert not unexplained, "\n".join(unexplained)
    assert {_key(finding) for finding in found} == ALLOWED  # (and the list holds no stale entry)


LOW = """\
from collections.abc import Callable

TABLE = {}
HOOKS = []
provider = None
setting = 0


class Mode:
    enabled = False
    listeners = []


def set_provider(function: Callable[[], int]) -> None:
    global provider
    provider = function


def set_setting(value: int) -> None:
    global setting
    setting = value


def add_hook(hook: Callable[[], None]) -> None:
    HOOKS.append(hook)
"""

HIGH = """\
import sys

from pkg import low
from pkg.low import Mode, set_provider
from pkg import lazy


def install(f):
    low.provider = f
    low.TABLE["key"] = f
    low.HOOKS.append(f)
    setattr(low, "provider", f)
    del low.TABLE["key"]
    Mode.listeners.append(f)
    sys.modules["pkg.fake"] = low
    set_provider(f)
    loaded = lazy.load("pkg.low")
    loaded.TABLE.update({})


def allowed(f):
    Mode.enabled = True
    low.set_setting(3)
    low.add_hook(f)
    sys.stdout = None
    table = low.TABLE
    table["alias"] = f
"""


def test_the_scan_finds_each_kind_of_write(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {"__init__.py": "", "low.py": LOW, "high.py": HIGH, "lazy.py": "def load(name): ...\n"},
    )
    found = [finding.split(" (")[0] for finding in state_writes(package)]
    assert found == [
        "pkg.high:9 low.provider",
        "pkg.high:10 low.TABLE['key']",
        "pkg.high:11 low.HOOKS.append",
        "pkg.high:12 setattr",
        "pkg.high:13 low.TABLE['key']",
        "pkg.high:14 Mode.listeners.append",
        "pkg.high:15 sys.modules['pkg.fake']",
        "pkg.high:16 set_provider",
        "pkg.high:18 loaded.TABLE.update",
    ]
