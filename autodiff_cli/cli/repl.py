"""The REPL: prompt_toolkit on a terminal (`repl_terminal`), plain statement-by-statement reading
otherwise. Both send statements and meta-commands (`repl_commands`) to the session, whose
namespace lives in a locked-down child process (`RemoteSession`, a `child_session`; `LocalSession` where processes
cannot be forked); this process reads input, completes from names the child lists, and does the
file work of :load and :save."""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from autodiff_cli.cli.repl_commands import (
    META_NAMES,
    QuitRepl,
    ReplState,
    is_meta_command,
    run_meta_command,
)

PS1, PS2 = ">>> ", "... "
_DOTTED = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)?$")
COMPOUND = re.compile(r"(if|for|while|def|class|with|try)\b|@")
_BLOCK_CONTINUATION = re.compile(r"(else|elif|except|finally)\b")


class StatementReader:
    """Groups input lines into chunks that each hold one complete statement.

    As in Python's REPL, a compound statement (`def`, `if`, ...) ends at a blank line; unlike it,
    a line that starts back at column 0 also ends it, so that piped scripts need no blank lines.
    Everything else ends as soon as `is_complete` says so (brackets may span lines). With
    `eager_errors` (a terminal), a block that no further line can make valid ends at once, so its
    syntax error shows as soon as the line is entered.
    """

    def __init__(self, is_complete: Callable[[str], bool], *, eager_errors: bool = False) -> None:
        self._is_complete = is_complete
        self._eager_errors = eager_errors
        self._lines: list[str] = []
        self._count = 0  # lines fed so far
        self._first = 0  # the line number of the pending chunk's first line
        self.first_lines: list[int] = []  # the first line of each chunk the last call returned

    @property
    def pending(self) -> bool:
        return bool(self._lines)

    def reset(self) -> None:
        self._lines.clear()

    def _text(self, extra: list[str] | None = None) -> str:
        return "\n".join(self._lines + (extra or [])) + "\n"

    def _compound(self) -> bool:
        return bool(COMPOUND.match(self._lines[0].lstrip()))

    def _take(self) -> str:
        text = self._text()
        self._lines.clear()
        self.first_lines.append(self._first)
        return text

    def skip(self) -> None:
        """Count a line that is not fed (a meta-command), so later line numbers stay right."""
        self._count += 1

    def feed(self, line: str) -> list[str]:
        """Add one line (without its newline); return the chunks it completes (and their first
        lines in `first_lines`, counted from 1 at the first line fed or skipped)."""
        chunks: list[str] = []
        self.first_lines = []
        self._count += 1
        stripped = line.strip()
        if not self._lines and (not stripped or stripped.startswith("#")):
            return chunks
        if (
            self._lines
            and stripped
            and not line[:1].isspace()
            and not stripped.startswith("#")
            and not _BLOCK_CONTINUATION.match(line)
            and self._compound()
            and self._is_complete(self._text([""]))
        ):
            chunks.append(self._take())  # a dedent to column 0 ends the compound statement
        if not self._lines:
            self._first = self._count
        self._lines.append(line)
        text = self._text()
        if (not stripped or not self._compound()) and self._is_complete(text):
            chunks.append(self._take())
        elif self._eager_errors and cannot_become_valid(text, self._is_complete):
            chunks.append(self._take())
        return chunks

    def finish(self) -> list[str]:
        """At end of input: whatever is left, complete or not (the language reports the latter)."""
        self.first_lines = []
        return [self._take()] if self._lines else []


def cannot_become_valid(text: str, is_complete: Callable[[str], bool]) -> bool:
    """Whether no further lines can make `text` valid: the parser takes it as complete (its
    error is not at the end of the text), yet it does not compile. Compiling runs no code."""
    from autodiff_cli.lang import ScriptError, compile_source

    if not text.strip() or not is_complete(text):
        return False
    try:
        compile_source(text, "<stdin>", "single")
    except ScriptError as error:
        return error.is_syntax_error
    except Exception:  # noqa: BLE001 - e.g. too deeply nested: the run reports it
        return False
    return False


# ---- completion, read from the session's dictionaries -------------------------------------


def attribute_names(obj: Any) -> list[str]:
    """Public attribute names of `obj`, found without calling anything on it: a module proxy's
    own dictionary, an object's class (properties are listed, never evaluated)."""
    from autodiff_cli.lang.sandbox import ModuleProxy, exposes_attributes

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
    from autodiff_cli.lang.sandbox import ModuleProxy

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


# ---- sessions --------------------------------------------------------------------------


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

    def close(self) -> None:
        pass


class RemoteSession:
    """The session's namespace in a locked-down child (`isolation.ChildSession`); this process
    reads the input, parses it only to know when a statement is complete, reads and writes the
    files of :load and :save, and starts a fresh child when one is lost."""

    def __init__(self, *, debug: bool = False, styled: bool = False, limits: Any = None) -> None:
        from autodiff_cli.cli.isolation import Limits
        from autodiff_cli.cli.warm_up import warm_up
        from autodiff_cli.lang import Session

        warm_up(rendering=styled)
        self.debug, self.styled = debug, styled
        self._parser = Session()  # parses input; never runs any
        self.limits = limits or Limits()
        self._child = self._start()

    def _start(self) -> Any:
        from autodiff_cli.cli.child_session import ChildSession

        return ChildSession(_Server(self.debug, self.styled), self.limits)

    def is_complete(self, text: str) -> bool:
        return self._parser.is_complete(text)

    def _ask(self, message: dict) -> dict:
        from autodiff_cli.cli.child_session import SessionLost
        from autodiff_cli.cli.terminal import print_error

        try:
            return self._child.request(message)
        except SessionLost as lost:
            print_error(
                f"error: the session was {lost.problem}; its variables are lost, "
                "a fresh session starts"
            )
            self._child = self._start()
            return {"ok": False}

    def execute(self, chunk: str, first_line: int = 1) -> bool:
        message = {"kind": "run", "text": chunk, "line": first_line}
        return self._ask(message).get("ok", False)

    def meta(self, text: str) -> bool:
        """A meta-command, run in the child; :load and :save touch files here. QuitRepl for
        :quit."""
        name, _, argument = text.strip()[1:].partition(" ")
        argument = argument.strip()
        if name in ("load", "save"):
            return self._load(argument) if name == "load" else self._save(argument)
        reply = self._ask({"kind": "meta", "text": text})
        if reply.get("quit"):
            raise QuitRepl
        return reply.get("ok", False)

    def _load(self, path: str) -> bool:
        from autodiff_cli.cli.run_cmd import UsageError, read_script
        from autodiff_cli.cli.terminal import print_error

        if not path:
            print_error(":load: usage: :load FILE")
            return False
        try:
            script = read_script(path)
        except UsageError as error:
            print_error(":load: " + str(error).removeprefix("autodiff run: error: "))
            return False
        source = script.source.decode("utf-8", "replace")
        return self._ask({"kind": "load", "name": path, "text": source}).get("ok", False)

    def _save(self, path: str) -> bool:
        from autodiff_cli.cli.terminal import print_error

        if not path:
            print_error(":save: usage: :save FILE")
            return False
        reply = self._ask({"kind": "save"})
        if "text" not in reply:
            return False
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(reply["text"])
        except OSError as error:
            print_error(f":save: cannot write {path}: {error.strerror}")
            return False
        sys.stdout.write(f"saved {reply['count']} inputs to {path}\n")
        sys.stdout.flush()
        return True

    def complete(self, text: str) -> tuple[str, list[str]]:
        reply = self._ask({"kind": "complete", "text": text})
        return reply.get("word", ""), list(reply.get("names", []))

    def close(self) -> None:
        self._child.close()


class _Server:
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
        if kind == "save":
            return {"text": "import torch\n" + "".join(state.inputs), "count": len(state.inputs)}
        if kind == "complete":
            word, names = candidates(state, text)
            return {"word": word, "names": names}
        return {"ok": False}


def _run_loaded(state: ReplState, name: str, source: str) -> bool:
    """:load's script, read by the parent, run in the session's namespace."""
    from autodiff_cli.cli.diagnostics import report_exception, warnings_to_stderr
    from autodiff_cli.lang import run_source

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
    from autodiff_cli.cli.isolation import isolation_available

    kind = RemoteSession if isolation_available() else LocalSession
    return kind(debug=debug, styled=styled, limits=limits)


def run_chunk(session: Session, chunk: str, first_line: int = 1) -> bool:
    """A meta-command or a statement (whose first line is `first_line` of the input); True on
    success (QuitRepl propagates)."""
    if is_meta_command(chunk):
        return session.meta(chunk)
    return session.execute(chunk, first_line)


def run_piped(lines: Iterable[str], *, debug: bool = False, limits: Any = None) -> int:
    """Statements read from a non-terminal: no prompts; exit status 1 if any statement failed.
    Error lines count from the start of the input, as Python's do for a piped script."""
    session = open_session(debug=debug, limits=limits)
    reader = StatementReader(session.is_complete)
    ok = True
    try:
        for line in lines:
            if not reader.pending and is_meta_command(line):
                reader.skip()
                ok = run_chunk(session, line.rstrip("\r\n")) and ok
                continue
            chunks = reader.feed(line.rstrip("\r\n"))
            for chunk, first_line in zip(chunks, reader.first_lines):
                ok = run_chunk(session, chunk, first_line) and ok
        chunks = reader.finish()
        for chunk, first_line in zip(chunks, reader.first_lines):
            ok = run_chunk(session, chunk, first_line) and ok
    except QuitRepl:
        pass
    finally:
        session.close()
    return 0 if ok else 1


def run_repl(*, debug: bool = False, limits: Any = None) -> int:
    """`autodiff repl`: a terminal session, or statements piped in. `limits`: the session
    child's `isolation.Limits` (memory, output per statement)."""
    if sys.stdin is None:  # started with standard input closed
        return run_piped([], debug=debug, limits=limits)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from autodiff_cli.cli.repl_terminal import run_terminal

        return run_terminal(debug=debug, limits=limits)
    try:
        return run_piped(sys.stdin, debug=debug, limits=limits)
    except KeyboardInterrupt:
        from autodiff_cli.cli.diagnostics import exit_on_interrupt

        return exit_on_interrupt()
