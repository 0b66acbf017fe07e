"""The REPL's state and its meta-commands (`:help`, `:vars`, `:graph NAME`, `:save FILE`, ...)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli import lazy_imports
from autodiff_cli.cli import output
from autodiff_cli.cli.formulas.repl_formula import formula_payload, show_formula
from autodiff_cli.cli.grad.explain import explain_lines, explained_backward, leaves_of
from autodiff_cli.cli.graph.build import graph_of
from autodiff_cli.cli.graph.export import TEXT_FORMATS, export
from autodiff_cli.cli.graph.tree import tree_of
from autodiff_cli.cli.output.diagnostics import report_exception, warnings_to_stderr
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.cli.repl import docs as repl_docs
from autodiff_cli.cli.repl import vars as repl_vars
from autodiff_cli.cli.repl.graph_files import (
    PICTURES,
    parse_graph_argument,
    source_format,
    write_graph_file,
)
from autodiff_cli.cli.repl.help import help_text
from autodiff_cli.engine.core import printing
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import ScriptError, Session, compile_source, run_source
from autodiff_cli.lang.errors import LOCATION_ATTRIBUTE, _own_attributes
from autodiff_cli.lang.runtime.namespace import script_repr
from autodiff_cli.lang.runtime.provenance import keep_recording

REPL_NAME = "<stdin>"

META_NAMES = (
    "help", "doc", "vars", "graph", "grads", "explain", "formula", "reset", "load", "save", "hints",
    "quit",
)  # fmt: skip


from autodiff_cli.cli.output.hints import hints_command  # noqa: E402 - after HELP, which it extends


class QuitRepl(Exception):
    """`:quit`."""


@dataclass
class ReplState:
    """One REPL session: the language session and the inputs that ran without error."""

    debug: bool = False
    styled: bool = False
    session: Any = None
    inputs: list[str] = field(default_factory=list)  # script text reproducing the session
    first_lines: dict[Any, int] = field(default_factory=dict)  # piped: chunk Source -> its line
    echoed: set[int] = field(default_factory=set)  # the inputs whose value was echoed (`_`)

    def __post_init__(self) -> None:
        if self.session is None:
            self.reset()

    def reset(self) -> None:
        keep_recording()  # each node's source text, for :graph, :explain and :formula
        self.session = Session()
        self.session.execute("import torch")
        self.inputs = []
        self.first_lines = {}
        self.echoed = set()

    def _shift_line(self, error: BaseException, first_line: int) -> None:
        """Count an error's line from the start of the input stream."""
        if not isinstance(error, ScriptError) or error.filename != REPL_NAME:
            return
        cause = error.__cause__
        location = None if cause is None else _own_attributes(cause).get(LOCATION_ATTRIBUTE)
        if location is not None:
            first_line = self.first_lines.get(location.source, 1)
        error.line += first_line - 1

    @property
    def namespace(self) -> dict[str, Any]:
        return self.session.namespace

    def execute(self, chunk: str, first_line: int = 1) -> bool:
        """Run one statement, echo a non-None value's repr, report an error. True on success.

        `first_line`: the chunk's line in piped input, so errors count lines from the stream's
        start (an error in a function reports the line of the chunk that defined it).
        """
        try:
            with warnings_to_stderr(REPL_NAME):
                program = compile_source(chunk, REPL_NAME, "single")
                if first_line != 1:
                    self.first_lines[program.source] = first_line
                value = program.run(self.session.namespace)
                echo = None if value is None else script_repr(value, REPL_NAME)
        except Exception as error:  # ScriptError, or a bug below the language
            self._shift_line(error, first_line)
            report_exception(error, debug=self.debug, context=REPL_NAME)
            return False
        self.inputs.append(script_text(chunk, echoed=value is not None))
        if value is not None:  # `_`, as Python's REPL keeps it (a global `_` hides it)
            self.namespace.builtins["_"] = value
            self.echoed.add(len(self.inputs) - 1)
        if echo is not None:
            sys.stdout.write(echo + "\n")
        sys.stdout.flush()
        return True


def _split_statements(chunk: str) -> list[str]:
    """Top-level statements of a chunk: split at newlines and `;` outside brackets/strings."""
    parts, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(chunk):
        if quote:
            if char == quote and chunk[index - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in ";\n" and depth == 0:
            parts.append(chunk[start:index])
            start = index + 1
    parts.append(chunk[start:])
    return [part for part in parts if part.strip()]


def script_text(chunk: str, *, echoed: bool) -> str:
    """The chunk as script text; an echoed trailing expression becomes `print(repr(...))` so
    that `autodiff run` prints what the REPL showed."""
    text = chunk.rstrip("\n") + "\n"
    if not echoed:
        return text
    statements = _split_statements(chunk.rstrip("\n"))
    *before, last = statements
    lines = [statement.strip() for statement in before]
    lines.append(f"print(repr({last.strip()}))")
    return "\n".join(lines) + "\n"


# ---- output helpers ------------------------------------------------------------------------


def page_commands() -> ModuleType:
    """The browser page's commands (`graph_page.commands`), imported on first use."""
    return lazy_imports.load("autodiff_cli.cli.graph_page.commands")


MAX_CELL_LINES = 8  # a longer value shows its first and last lines around a "…" line


def _print_table(state: ReplState, columns: list[str], rows: list[list[str]], title: str) -> None:
    """A table whose cells may span several lines (a 2-D tensor's repr, row under row)."""
    if state.styled:
        styled = output.optional("styled")
        table = styled.Table(title=title, title_justify="left")
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*(styled.Text(cell) for cell in row))  # `[nan, 1.]` is no markup
        styled.Console(highlight=False).print(table)
        return
    cells = [[cell.split("\n") for cell in row] for row in rows]
    widths = [
        max(len(column), *(len(line) for row in cells for line in row[i]))
        for i, column in enumerate(columns)
    ]

    def line(parts: list[str]) -> str:
        return "  ".join(part.ljust(width) for part, width in zip(parts, widths)).rstrip()

    lines = [line(columns)]
    for row in cells:
        height = max(len(cell) for cell in row)
        for index in range(height):
            lines.append(line([cell[index] if index < len(cell) else "" for cell in row]))
    sys.stdout.write("\n".join(lines) + "\n")


def tensor_cell(value: Any) -> str:
    """A value as its repr prints it. A long tensor is summarised as PyTorch's printing does
    past its threshold (`[a, b, c, ..., x, y, z]`), one row a line; if that is still long,
    whole rows are left out around a "…" line."""
    text = repr(value)
    if text.count("\n") >= MAX_CELL_LINES and getattr(value, "ndim", 0) > 0:
        sci_mode = printing.get_printoptions()["sci_mode"]
        with printing.printoptions(threshold=0, linewidth=1_000_000, sci_mode=sci_mode):
            text = repr(value)
    lines = text.split("\n")
    if len(lines) <= MAX_CELL_LINES:
        return text
    head, tail = MAX_CELL_LINES // 2, MAX_CELL_LINES // 2 - 1
    hidden = len(lines) - head - tail
    return "\n".join([*lines[:head], f"… {hidden} more lines …", *lines[-tail:]])


def _tensors(state: ReplState) -> list[tuple[str, Any]]:
    return [
        (name, value)
        for name, value in state.namespace.items()
        if isinstance(value, torch.Tensor) and not name.startswith("_")
    ]


# ---- the commands --------------------------------------------------------------------------


def show_vars(state: ReplState, argument: str) -> None:
    repl_vars.show_vars(state, argument, _print_table, tensor_cell)


def show_grads(state: ReplState, argument: str) -> None:
    rows = [
        [name, tensor_cell(repl_vars.grad_of(tensor))]
        for name, tensor in _tensors(state)
        if tensor.is_leaf and tensor.requires_grad
    ]
    if not rows:
        sys.stdout.write(_("no leaf tensors that require grad") + "\n")
        return
    _print_table(state, [_("leaf"), "grad"], rows, _("leaf gradients"))


def _lookup(state: ReplState, name: str, command: str) -> Any:
    if not name:
        raise ValueError(_("usage: :{command} NAME").format(command=command))
    if name not in state.namespace:
        raise ValueError(_("no variable named {name}").format(name=repr(name)))
    return state.namespace[name]


def show_graph(state: ReplState, argument: str) -> None:
    name, fmt, path = parse_graph_argument(argument)
    if fmt == "html":  # in this process (no fork); a RemoteSession writes the page itself
        pages = page_commands()
        problem = pages.write_page(graph_page_json(state, name, path), path.strip())
        if problem:
            raise ValueError(problem)
        sys.stdout.write(_("wrote {path}: open it in a browser").format(path=path.strip()) + "\n")
        return
    if path:  # in this process (no fork); a RemoteSession writes the file itself
        write_graph_file(graph_text(state, name, source_format(fmt)), fmt, path)
        return
    if fmt in PICTURES:
        raise ValueError(_("usage: :graph NAME {fmt} FILE").format(fmt=fmt))
    if fmt not in TEXT_FORMATS:
        formats = ", ".join((*TEXT_FORMATS, *PICTURES, "html"))
        message = _("format must be one of {formats}, not {fmt}")
        raise ValueError(message.format(formats=formats, fmt=repr(fmt)))
    if fmt == "tree" and state.styled:
        graph = graph_of(_lookup(state, name, "graph"), dict(state.namespace), name)
        styled = output.optional("styled")
        styled.console().print(styled.to_rich(tree_of(graph, details=True)))
        return
    sys.stdout.write(graph_text(state, name, fmt))


def graph_text(state: ReplState, name: str, fmt: str) -> str:
    """NAME's graph as text in `fmt` (tree, dot or mermaid)."""
    if fmt not in TEXT_FORMATS:
        raise ValueError(
            _("format must be one of {formats}, not {fmt}").format(
                formats=", ".join(TEXT_FORMATS), fmt=repr(fmt)
            )
        )
    graph = graph_of(_lookup(state, name, "graph"), dict(state.namespace), name)
    return str(export(graph, fmt))


def graph_page_json(state: ReplState, name: str, path: str) -> str:
    """`:graph NAME html FILE`: the data of NAME's browser page, as JSON (the REPL's `.grad`
    values stay as they were: `graph_page.data`)."""
    if not path.strip():
        raise ValueError(_("usage: :graph NAME html FILE"))
    pages = page_commands()
    return pages.page_json(_lookup(state, name, "graph"), dict(state.namespace), name)


def explain(state: ReplState, argument: str) -> None:
    """`NAME.backward()` step by step, under backward()'s own rules: the graph is freed
    afterwards, a non-scalar needs a gradient, only the leaves in NAME's graph are shown."""
    value = _lookup(state, argument, "explain")
    if not isinstance(value, torch.Tensor):
        raise ValueError(
            _("{name} is not a tensor (it is {kind})").format(
                name=argument, kind=type(value).__name__
            )
        )
    in_graph = leaves_of(value)
    leaves = {name: tensor for name, tensor in _tensors(state) if id(tensor) in in_graph}
    try:
        walk = explained_backward(value, None, leaves)
    except RuntimeError as error:  # what `NAME.backward()` raises, as PyTorch words it
        raise ValueError(f"RuntimeError: {error}") from None
    # it ran NAME.backward(): a saved session (`:save`) runs it too
    state.inputs.append(f"{argument.strip()}.backward()\n")
    sys.stdout.write("\n".join(explain_lines(walk)) + "\n")


def formula(state: ReplState, argument: str) -> None:
    """`:formula NAME [WRT...]` in this process (where processes cannot be forked; the child's
    half is `formula_reply`)."""
    if not show_formula(formula_payload(state.namespace, argument), styled=state.styled):
        raise ValueError(_("the formula and autograd disagree"))


def formula_reply(state: ReplState, argument: str) -> dict[str, Any]:
    """The child's half of `:formula`: the payload as JSON text, or the error reported here."""
    try:
        return {"formula": json.dumps(formula_payload(state.namespace, argument))}
    except ValueError as error:
        print_error(f":formula: {error}")
        return {"ok": False}


def load(state: ReplState, argument: str) -> None:
    if not argument:
        raise ValueError(_("usage: :load FILE"))
    try:
        with open(argument, encoding="utf-8") as handle:
            source = handle.read()
    except OSError as error:
        raise ValueError(
            _("cannot read {path}: {reason}").format(path=argument, reason=error.strerror)
        ) from None
    try:
        with warnings_to_stderr(argument):
            run_source(source, argument, namespace=state.namespace, stdout=sys.stdout)
    except Exception as error:
        report_exception(error, debug=state.debug, context=argument)
        return
    state.inputs.append(source if source.endswith("\n") else source + "\n")


_UNDERSCORE = re.compile(r"(?<![\w.])_(?!\w)")


def saved_script(state: ReplState) -> str:
    """The session's successful inputs as a script. When an input reads `_`, each echoed value
    is also assigned to `_` there, so that `autodiff run` computes what the session did."""
    uses_last = any(_UNDERSCORE.search(text) for text in state.inputs)
    parts = []
    for index, text in enumerate(state.inputs):
        head, _newline, last = text.rstrip("\n").rpartition("\n")
        if uses_last and index in state.echoed and last.startswith("print(repr("):
            expression = last.removeprefix("print(repr(").removesuffix("))")
            text = (head + "\n" if head else "") + f"_ = ({expression})\nprint(repr(_))\n"
        parts.append(text)
    return "import torch\n" + "".join(parts)


def saved_message(count: int, path: str) -> str:
    """What :save says once the file is written."""
    message = _("saved 1 input to {path}") if count == 1 else _("saved {count} inputs to {path}")
    return message.format(count=count, path=path)


def save(state: ReplState, argument: str) -> None:
    if not argument:
        raise ValueError(_("usage: :save FILE"))
    text = saved_script(state)
    try:
        with open(argument, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise ValueError(
            _("cannot write {path}: {reason}").format(path=argument, reason=error.strerror)
        ) from None
    sys.stdout.write(saved_message(len(state.inputs), argument) + "\n")


def reset(state: ReplState, argument: str) -> None:
    state.reset()
    sys.stdout.write(_("the namespace is fresh again") + "\n")


def show_help(state: ReplState, argument: str) -> None:
    sys.stdout.write(help_text() + "\n")


def quit_repl(state: ReplState, argument: str) -> None:
    raise QuitRepl


COMMANDS: dict[str, Callable[[ReplState, str], None]] = {
    "help": show_help,
    "doc": repl_docs.show_doc,
    "vars": show_vars,
    "graph": show_graph,
    "grads": show_grads,
    "explain": explain,
    "formula": formula,
    "reset": reset,
    "load": load,
    "save": save,
    "hints": hints_command,
    "quit": quit_repl,
    "q": quit_repl,
    "exit": quit_repl,
}


def is_meta_command(text: str) -> bool:
    """`:name ...`, or `NAME?` (help on NAME, as IPython asks for it)."""
    return text.lstrip().startswith(":") or repl_docs.help_query(text) is not None


def meta_text(text: str) -> str:
    """A meta-command as `:name argument` (`x.backward?` is `:doc x.backward`)."""
    query = repl_docs.help_query(text)
    return text if query is None else f":doc {query}"


def run_meta_command(state: ReplState, text: str) -> bool:
    """Run `:name argument`; report a problem on stderr. True on success; QuitRepl for :quit."""
    name, _space, argument = meta_text(text).strip()[1:].partition(" ")
    command = COMMANDS.get(name)
    if command is None:
        print_error(_("unknown command :{name} (:help lists the commands)").format(name=name))
        return False
    try:
        command(state, argument.strip())
    except QuitRepl:
        raise
    except ValueError as error:
        print_error(f":{name}: {error}")
        return False
    except Exception as error:  # GraphError, engine errors while explaining
        print_error(f":{name}: {type(error).__name__ if not str(error) else ''}{error}")
        return False
    sys.stdout.flush()
    return True
