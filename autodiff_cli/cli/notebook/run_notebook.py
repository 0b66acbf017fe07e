"""`autodiff run notebook.ipynb`, in the script's child: the code cells run in order in one
session (the kernel's: the REPL's namespace, `torch` imported, `:` commands), each cell's value
echoed after its output as a notebook shows it; markdown and raw cells are skipped. The first
failing cell ends the run, as "Run All" stops in a notebook.

With `report_cells` (`--json`), each cell's outcome is one JSON line on stdout instead
(`cell_report.CELL_FIELDS`); the parent checks and re-emits them (`cell_report`, loaded with
this module: `run.command` reaches both through it).
"""

from __future__ import annotations

import io
import json
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from autodiff_cli.cli.notebook.cell_report import (  # noqa: F401 - also this module's API
    CELL_FIELDS,
    write_notebook_json,
)
from autodiff_cli.cli.notebook.cell_run import run_cell
from autodiff_cli.cli.notebook.cells import is_meta_cell
from autodiff_cli.cli.notebook.ipynb import NotebookError, read_cells
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.cli.repl.commands import QuitRepl, ReplState, run_meta_command


def run_notebook(
    name: str, source: str | bytes, *, debug: bool, stdout: Any, report_cells: bool
) -> bool:
    """Run the notebook's code cells; True when every one ran."""
    try:
        cells = read_cells(source)
    except NotebookError as error:
        print_error(f"{name}: error\nNotebookError: {error}")
        return False
    state = ReplState(debug=debug)
    state.namespace.stdout = None  # print() writes to sys.stdout: the cell's, when captured
    for cell in cells:
        if cell.kind != "code" or not cell.source.strip():
            continue
        label = f"{name} cell {cell.number}"
        if report_cells:
            ok, stop = _reported(state, cell.number, cell.source, label, name, stdout)
        else:
            with redirect_stdout(stdout):
                ok, stop = _run(state, cell.source, label, stdout)
        if not ok or stop:
            return ok
    return True


def _run(state: ReplState, source: str, label: str, stdout: Any) -> tuple[bool, bool]:
    """(ran without error, `:quit` asked to stop)."""
    if is_meta_cell(source):
        for line in source.split("\n"):
            if not line.strip():
                continue
            try:
                if not run_meta_command(state, line):
                    return False, False
            except QuitRepl:
                return True, True
        return True, False
    reply = run_cell(state, source, label)
    if "echo" in reply:
        stdout.write(reply["echo"] + "\n")
    stdout.flush()
    return reply["ok"], False


def _reported(
    state: ReplState, number: int, source: str, label: str, name: str, stdout: Any
) -> tuple[bool, bool]:
    """Run a cell with its output captured, and write its JSON record on `stdout`."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    result: list[str] = []

    class _Echo(io.StringIO):  # the echo goes to the record's `result`, not its stdout
        def write(self, text: str) -> int:
            result.append(text)
            return len(text)

    with redirect_stdout(out), redirect_stderr(err):
        ok, stop = _run(state, source, label, _Echo())
    record = {
        "path": name,
        "cell": number,
        "ok": ok,
        "stdout": out.getvalue(),
        "result": "".join(result).removesuffix("\n") if result else None,
        "error": err.getvalue() or None,
        "seconds": round(time.perf_counter() - start, 6),
    }
    stdout.write(json.dumps(record) + "\n")
    stdout.flush()
    sys.stdout.flush()
    return ok, stop
