"""One notebook cell in the REPL's session, run where its namespace lives (the jailed child):
the cell's value echoed as a notebook shows it, its error located in the cell
(`nb.ipynb cell 3, line 2: error`, `In [4], line 1: error`), as the CLI reports a script's.

`CellServer` is the kernel's child: the REPL's requests, plus a cell, an inspection (`help()` of
the name at the cursor) and the views of `:graph NAME`.
"""

from __future__ import annotations

import ast
import io
import re
from contextlib import redirect_stdout
from typing import Any

from autodiff_cli.cli.notebook.cells import is_quiet, prepare_cell
from autodiff_cli.cli.output.diagnostics import report_exception, warnings_to_stderr
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.cli.repl.commands import ReplState, graph_page_json, run_meta_command
from autodiff_cli.cli.repl.session import SessionServer
from autodiff_cli.lang import ScriptError, compile_source
from autodiff_cli.lang.errors import error_message
from autodiff_cli.lang.runtime.namespace import script_repr
from autodiff_cli.lang.sandbox.introspection import describe

# (Imported at the top: the jailed child that runs a cell cannot import anything.)

_CELL_LABELS: set[str] = set()  # the cells run in this process: their errors say "line N"
_NAME_AT_END = re.compile(r"[A-Za-z_][\w.]*$")
_NAME_AT = re.compile(r"[A-Za-z_][\w.]*")


def run_cell(state: ReplState, source: str, label: str) -> dict[str, Any]:
    """Run a cell (IPython-only lines skipped or refused, `cells`); the reply: `ok`, `echo`
    (the repr of a trailing expression's value, unless None or the cell ends with `;`), and
    `ename`/`evalue` of an error, which is reported on stderr. Ctrl-C propagates."""
    prepared = prepare_cell(source)
    for line, note in prepared.notes:
        print_error(f"{label}, line {line}: note: {note}")
    if prepared.refusal is not None:
        line, why = prepared.refusal
        print_error(f"{label}, line {line}: error\nSyntaxError: {why}")
        return {"ok": False, "ename": "SyntaxError", "evalue": why}
    code = prepared.code
    if not code.strip():
        return {"ok": True}
    _CELL_LABELS.add(label)
    try:
        with warnings_to_stderr(label):
            value = compile_source(code, label, "single").run(state.namespace)
            shown = value is not None and not is_quiet(code)
            echo = script_repr(value, label) if shown else None
    except Exception as error:  # ScriptError, or a bug below the language
        return report_cell_error(error, debug=state.debug)
    state.inputs.append(saved_text(code, echoed=echo is not None))
    return {"ok": True} if echo is None else {"ok": True, "echo": echo}


def report_cell_error(error: BaseException, *, debug: bool) -> dict[str, Any]:
    """Report the error as the CLI does, a cell's location as `LABEL, line N`; the reply's
    error fields."""
    if isinstance(error, ScriptError):
        if error.filename in _CELL_LABELS and error.line > 0 and not debug:
            _, _, rest = str(error).partition("\n")
            print_error(f"{error.filename}, line {error.line}: error\n{rest}")
        else:
            report_exception(error, debug=debug)
        return {"ok": False, "ename": error.type_name, "evalue": error.message}
    report_exception(error, debug=debug)
    return {"ok": False, "ename": type(error).__name__, "evalue": error_message(error)}


def saved_text(code: str, *, echoed: bool) -> str:
    """The cell as script text for `:save`: an echoed trailing expression becomes
    `print(repr(...))`, so that `autodiff run` prints what the notebook showed."""
    text = code.rstrip("\n") + "\n"
    if not echoed:
        return text
    try:
        last = ast.parse(text).body[-1]
    except (SyntaxError, IndexError, ValueError):
        return text
    if not isinstance(last, ast.Expr) or last.end_lineno is None:
        return text
    lines = text.split("\n")
    head = lines[: last.lineno - 1]
    expression = "\n".join(lines[last.lineno - 1 : last.end_lineno]).strip().rstrip(";")
    return "\n".join([*head, f"print(repr({expression}))"]) + "\n"


def name_at(code: str, cursor: int) -> str:
    """The dotted name under (or just before) the cursor: what Shift-Tab asks about."""
    for match in _NAME_AT.finditer(code):
        if match.start() <= cursor <= match.end():
            return match.group().rstrip(".")
    match = _NAME_AT_END.search(code[:cursor].rstrip("( "))
    return match.group().rstrip(".") if match else ""


def inspect_name(state: ReplState, name: str) -> str:
    """`help(name)`'s text, or "" when the name is not defined (evaluated by the language, in
    the session: what a cell writing `help(name)` would run)."""
    if not name or not all(part.isidentifier() for part in name.split(".")):
        return ""
    root = name.split(".")[0]
    if root not in state.namespace and root not in state.namespace.builtins:
        return ""
    try:
        value = compile_source(name, "<inspect>", "eval").run(state.namespace)
        return describe(value)
    except Exception:  # noqa: BLE001 - nothing to show: an attribute that is not there
        return ""


def graph_views(state: ReplState, name: str) -> dict[str, Any]:
    """`:graph NAME` for a notebook: the graph as DOT (drawn as SVG by the kernel), as the
    REPL's tree, and the data of the interactive page (`graph_page`, laid out by the kernel);
    an error is reported as the REPL reports it."""
    views: dict[str, Any] = {"ok": True}
    for fmt in ("dot", "tree"):
        out = io.StringIO()
        with redirect_stdout(out):
            ok = run_meta_command(state, f":graph {name} {fmt}")
        if not ok:
            return {"ok": False}
        views[fmt] = out.getvalue()
    try:
        views["page"] = graph_page_json(state, name, "(notebook)")
    except Exception:  # noqa: BLE001 - the SVG and the tree are shown without it
        pass
    return views


class CellServer(SessionServer):
    """The kernel's child: the REPL's requests, and `cell`, `inspect`, `graph`."""

    def __call__(self, message: dict) -> dict:
        if self.state is None:
            self.state = ReplState(debug=self.debug, styled=self.styled)
        kind, text = message.get("kind"), str(message.get("text", ""))
        if kind == "cell":
            return run_cell(self.state, text, str(message.get("name", "In [ ]")))
        if kind == "inspect":
            return {"text": inspect_name(self.state, text)}
        if kind == "graph":
            return graph_views(self.state, text)
        return super().__call__(message)
