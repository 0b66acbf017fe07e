"""The REPL's session: its namespace in a locked-down child process (`RemoteSession`, a
`child_session`), or in this process where processes cannot be forked (`LocalSession`). This
process reads input, completes from names the child lists, and does the file work of :load and
:save; the child runs statements and meta-commands (`repl.commands`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli import lang
from autodiff_cli.cli.formulas.repl_formula import show_formula
from autodiff_cli.cli.jail.child_session import ChildSession, SessionLost
from autodiff_cli.cli.jail.isolation import Limits, isolation_available
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import report_exception, warnings_to_stderr
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.cli.repl.commands import (
    QuitRepl,
    ReplState,
    formula_reply,
    graph_page_json,
    graph_text,
    is_meta_command,
    meta_text,
    page_commands,
    run_meta_command,
    saved_message,
    saved_script,
)
from autodiff_cli.cli.repl.completion import candidates
from autodiff_cli.cli.repl.docs import signature_hint
from autodiff_cli.cli.repl.graph_files import parse_graph_argument, source_format, write_graph_file
from autodiff_cli.cli.run.script_files import UsageError, read_script
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import run_source


class LocalSession:
    """The session in this process (no fork: the language's limits alone)."""

    def __init__(self, *, debug: bool = False, styled: bool = False, limits: Any = None) -> None:
        self.state = ReplState(debug=debug, styled=styled)
        self.styled = styled

    def is_complete(self, text: str) -> bool:
        return self.state.session.is_complete(text)

    def execute(self, chunk: str, first_line: int = 1) -> bool:
        return self.state.execute(chunk, first_line)

    def meta(self, text: str) -> bool:
        """A meta-command; QuitRepl for :quit."""
        return run_meta_command(self.state, text)

    def complete(self, text: str) -> tuple[str, list[str]]:
        return candidates(self.state, text)

    def signature(self, text: str) -> str:
        return signature_hint(self.state, text)

    def close(self) -> None:
        pass


class RemoteSession:
    """The session's namespace in a locked-down child (`isolation.ChildSession`); this process
    reads the input, parses it only to know when a statement is complete, reads and writes the
    files of :load and :save, and starts a fresh child when one is lost."""

    def __init__(self, *, debug: bool = False, styled: bool = False, limits: Any = None) -> None:
        warm_up(rendering=styled)
        # `:graph NAME html`: the child makes the page's data
        page_commands()
        self.debug, self.styled = debug, styled
        self._parser = lang.Session()  # parses input; never runs any

        self.limits = limits or Limits()
        self._child = self._start()

    def _start(self) -> Any:
        return ChildSession(self.server(), self.limits)

    def server(self) -> SessionServer:
        """What the child runs for each request (a notebook kernel's serves cells too)."""
        return SessionServer(self.debug, self.styled)

    def is_complete(self, text: str) -> bool:
        return self._parser.is_complete(text)

    def _ask(self, message: dict) -> dict:
        try:
            return _checked_reply(self._child.request(message))
        except SessionLost as lost:
            self._child.close()  # (a reply refused here leaves it running)
            message = _("the session was {problem}; its variables are lost, a fresh session starts")
            print_error(_("error: ") + message.format(problem=lost.problem))
            self._child = self._start()
            return {"ok": False}

    def execute(self, chunk: str, first_line: int = 1) -> bool:
        message = {"kind": "run", "text": chunk, "line": first_line}
        return self._ask(message).get("ok", False)

    def meta(self, text: str) -> bool:
        """A meta-command, run in the child; :load and :save touch files here. QuitRepl for
        :quit."""
        name, _sep, argument = text.strip()[1:].partition(" ")
        argument = argument.strip()
        if name in ("load", "save"):
            return self._load(argument) if name == "load" else self._save(argument)
        if name == "graph" and argument.split(" ")[1:2] == ["html"]:
            return self._graph_page(argument)
        if name == "graph" and parse_graph_argument(argument)[2]:
            return self._graph_file(argument)
        if name == "formula":
            return self._formula(argument)
        reply = self._ask({"kind": "meta", "text": text})
        if reply.get("quit"):
            raise QuitRepl
        return reply.get("ok", False)

    def _formula(self, argument: str) -> bool:
        """:formula: the child reads the graph and the gradients; SymPy runs here."""
        reply = self._ask({"kind": "formula", "text": argument})
        if "formula" not in reply:
            return False
        try:
            ok = show_formula(json.loads(reply["formula"]), styled=self.styled)
        except (ValueError, RecursionError) as error:
            print_error(f":formula: {error}")
            return False
        if not ok:
            print_error(f":formula: {_('the formula and autograd disagree')}")
        return ok

    def _load(self, path: str) -> bool:
        if not path:
            print_error(":load: " + _("usage: :load FILE"))
            return False
        try:
            script = read_script(path)
        except UsageError as error:
            print_error(":load: " + str(error).removeprefix("autodiff run: error: "))
            return False
        source = script.source.decode("utf-8", "replace")
        return self._ask({"kind": "load", "name": path, "text": source}).get("ok", False)

    def _save(self, path: str) -> bool:
        if not path:
            print_error(":save: " + _("usage: :save FILE"))
            return False
        reply = self._ask({"kind": "save"})
        if "text" not in reply:
            return False
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(reply["text"])
        except OSError as error:
            print_error(
                ":save: "
                + _("cannot write {path}: {reason}").format(path=path, reason=error.strerror)
            )
            return False
        sys.stdout.write(saved_message(reply["count"], path) + "\n")
        sys.stdout.flush()
        return True

    def _graph_page(self, argument: str) -> bool:
        """`:graph NAME html FILE`: the page's data from the child, the page written here."""
        name, _sep, path = argument.partition(" html")
        reply = self._ask({"kind": "graph_page", "text": name.strip(), "path": path.strip()})
        if "text" not in reply:
            return False
        pages = page_commands()
        problem = pages.write_page(reply["text"], path.strip())
        if problem:
            print_error(f":graph: {problem}")
            return False
        sys.stdout.write(_("wrote {path}: open it in a browser").format(path=path.strip()) + "\n")
        sys.stdout.flush()
        return True

    def _graph_file(self, argument: str) -> bool:
        """`:graph NAME FMT FILE`: the text from the child, the file (or picture) made here."""
        name, fmt, path = parse_graph_argument(argument)
        message = {"kind": "graph_text", "text": name, "format": source_format(fmt)}
        reply = self._ask(message)
        if "text" not in reply:
            return False
        try:
            write_graph_file(reply["text"], fmt, path)
        except ValueError as error:
            print_error(f":graph: {error}")
            return False
        return True

    def signature(self, text: str) -> str:
        """The signature of the call being typed (the toolbar's hint)."""
        return self._ask({"kind": "signature", "text": text}).get("text", "")

    def complete(self, text: str) -> tuple[str, list[str]]:
        reply = self._ask({"kind": "complete", "text": text})
        return reply.get("word", ""), list(reply.get("names", []))

    def close(self) -> None:
        self._child.close()


# What a reply may hold (the child is untrusted: a breached one could send anything).
# (echo, ename, evalue, dot, tree: a notebook cell's reply, `notebook.cell_run`; formula: `:formula`)
_REPLY_FIELDS = {"ok": bool, "quit": bool, "text": str, "count": int, "word": str, "names": list}
_REPLY_FIELDS.update(
    dict.fromkeys(("echo", "ename", "evalue", "dot", "tree", "formula", "page"), str)
)


def _checked_reply(reply: dict) -> dict:
    """`reply` if each field has its type (completion names and the word are identifiers), else
    SessionLost: a wrong type would end the REPL with a traceback (`handle.write(3)`), and
    completion names are shown and inserted as they are (no escape sequences)."""
    for name, value in reply.items():
        kind = _REPLY_FIELDS.get(name)
        if kind is None or type(value) is not kind:
            raise SessionLost(f"ended: its process sent a reply with an invalid '{name}'")
        if kind is list and not all(type(item) is str and item.isidentifier() for item in value):
            raise SessionLost("ended: its process sent completion names that are not names")
        if name == "word" and value and not value.isidentifier():
            raise SessionLost("ended: its process sent a completed word that is not a name")
    return reply


class SessionServer:
    """What the child does for each request, on its own `ReplState`."""

    def __init__(self, debug: bool, styled: bool) -> None:
        self.debug, self.styled = debug, styled
        self.state: ReplState | None = None

    def __call__(self, message: dict) -> dict:
        if self.state is None:
            self.state = ReplState(debug=self.debug, styled=self.styled)
        state, kind, text = self.state, message.get("kind"), str(message.get("text", ""))
        if kind == "run":
            line = message.get("line", 1)
            return {"ok": state.execute(text, line if type(line) is int else 1)}
        if kind == "meta":
            try:
                return {"ok": run_meta_command(state, text)}
            except QuitRepl:
                return {"quit": True}
        if kind == "load":
            return {"ok": _run_loaded(state, str(message.get("name")), text)}
        if kind == "formula":
            return formula_reply(state, text)
        if kind == "save":
            return {"text": saved_script(state), "count": len(state.inputs)}
        if kind == "graph_page":
            path = str(message.get("path", ""))
            return _graph_reply(lambda: graph_page_json(state, text, path))
        if kind == "graph_text":
            fmt = str(message.get("format", ""))
            return _graph_reply(lambda: graph_text(state, text, fmt))
        if kind == "signature":
            return {"text": signature_hint(state, text)}
        if kind == "complete":
            word, names = candidates(state, text)
            return {"word": word, "names": names}
        return {"ok": False}


def _graph_reply(make: Callable[[], str]) -> dict:
    """`:graph NAME html FILE`'s page data or `:graph NAME FMT FILE`'s text (`make()`), or the
    problem said on stderr."""
    try:
        return {"text": make()}
    except Exception as error:  # no such variable, not a tensor, no grad_fn
        print_error(f":graph: {type(error).__name__ if not str(error) else ''}{error}")
        return {"ok": False}


def _run_loaded(state: ReplState, name: str, source: str) -> bool:
    """:load's script, read by the parent, run in the session's namespace."""
    try:
        with warnings_to_stderr(name):
            run_source(source, name, namespace=state.namespace, stdout=sys.stdout)
    except Exception as error:  # a ScriptError: reported, the session goes on
        report_exception(error, debug=state.debug, context=name)
        return False
    state.inputs.append(source if source.endswith("\n") else source + "\n")
    return True


Session = LocalSession | RemoteSession


def open_session(*, debug: bool = False, styled: bool = False, limits: Any = None) -> Session:
    """The REPL's session: in a locked-down child (with `isolation.Limits`) where processes
    can be forked."""
    kind = RemoteSession if isolation_available() else LocalSession
    return kind(debug=debug, styled=styled, limits=limits)


def run_chunk(session: Session, chunk: str, first_line: int = 1) -> bool:
    """A meta-command or a statement (whose first line is `first_line` of the input); True on
    success (QuitRepl propagates)."""
    if is_meta_command(chunk):
        return session.meta(meta_text(chunk))
    return session.execute(chunk, first_line)
