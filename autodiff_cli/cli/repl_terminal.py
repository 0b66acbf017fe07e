"""The interactive REPL on a terminal: prompt_toolkit for input, Rich for tables and trees.

Persistent history (under $XDG_STATE_HOME/autodiff, else ~/.local/state/autodiff), completion of
names, attributes and methods, Python syntax highlighting, multi-line blocks with auto-indent.
On a dumb terminal (TERM=dumb: Emacs shells, test harnesses) lines are read one at a time with
`>>> ` and `... ` prompts instead of the multi-line editor.
"""

from __future__ import annotations

import keyword
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.utils import is_dumb_terminal
from pygments.lexers.python import PythonLexer

from autodiff_cli import __version__
from autodiff_cli.cli.repl import COMPOUND, PS1, PS2, StatementReader
from autodiff_cli.cli.repl_commands import (
    META_NAMES,
    QuitRepl,
    ReplState,
    is_meta_command,
    run_meta_command,
)

_DOTTED = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)?$")
_DEDENTERS = re.compile(r"\s*(return|pass|break|continue|raise)\b")
INDENT = "    "


def history_path() -> Path:
    """$XDG_STATE_HOME/autodiff/history, by default ~/.local/state/autodiff/history."""
    state_home = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state_home) / "autodiff" / "history"


def _history() -> Any:
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError:  # a read-only home: history for this session only
        return InMemoryHistory()
    return FileHistory(str(path))


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


class ReplCompleter(Completer):
    """Names in the session, builtins and keywords; `name.` gives attributes and methods."""

    def __init__(self, state: ReplState) -> None:
        self.state = state

    def candidates(self, text: str) -> tuple[str, list[str]]:
        """(the word being completed, the names that may complete it)."""
        if text.lstrip().startswith(":") and " " not in text.strip():
            word = text.strip()[1:]
            return word, [name for name in META_NAMES if name.startswith(word)]
        match = _DOTTED.search(text)
        prefix, word = match.group(1), match.group(2) or ""
        if not prefix:
            if not word:
                return word, []
            namespace = self.state.namespace
            names = set(namespace) | set(namespace.builtins) | set(keyword.kwlist)
        else:
            obj = self._resolve(prefix.rstrip(".").split("."))
            if obj is None:
                return word, []
            names = set(attribute_names(obj))
        return word, sorted(n for n in names if n.startswith(word) and not n.startswith("_"))

    def _resolve(self, parts: list[str]) -> Any:
        """The object a dotted prefix names, looking through dictionaries only (no getattr on
        objects: a property could run code, except to load a lazy submodule such as torch.nn);
        attributes of non-modules are not followed."""
        from autodiff_cli.lang.sandbox import ModuleProxy

        namespace = self.state.namespace
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

    def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
        word, names = self.candidates(document.text_before_cursor)
        for name in names:
            yield Completion(name, start_position=-len(word))


def next_indent(text: str) -> str:
    """The indentation for the line after `text`'s last line."""
    last = text.split("\n")[-1]
    indent = last[: len(last) - len(last.lstrip())]
    code = last.split("#")[0].rstrip()
    if code.endswith(":"):
        return indent + INDENT
    if _DEDENTERS.match(last) and indent:
        return indent[: -len(INDENT)] if indent.endswith(INDENT) else ""
    return indent


def is_finished(text: str, is_complete: Any) -> bool:
    """Whether Enter runs the input: a meta-command, a complete simple statement, or a block
    (def, for, ...) followed by a blank line."""
    if not text.strip() or is_meta_command(text) and "\n" not in text.strip():
        return True
    lines = text.split("\n")
    if COMPOUND.match(text.lstrip()) or len(lines) > 1 and lines[0].rstrip().endswith(":"):
        return not lines[-1].strip() and is_complete(text.rstrip() + "\n\n")
    return is_complete(text + "\n")


def _key_bindings(state: ReplState) -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("enter")
    def _enter(event: Any) -> None:
        buffer = event.current_buffer
        text = buffer.text
        if buffer.document.is_cursor_at_the_end and is_finished(text, state.session.is_complete):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n" + next_indent(buffer.document.text_before_cursor))

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:  # Alt-Enter: a new line even when the input is complete
        event.current_buffer.insert_text("\n")

    return bindings


def _run_input(state: ReplState, text: str) -> None:
    """Run what was typed; Ctrl-C stops it and the session goes on."""
    try:
        if is_meta_command(text):
            run_meta_command(state, text)
        elif text.strip():
            state.execute(text.rstrip() + "\n")
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("KeyboardInterrupt\n")
        sys.stderr.flush()


def _banner() -> None:
    sys.stdout.write(
        f"autodiff {__version__} REPL: PyTorch's autograd on numpy; `torch` is imported.\n"
        "Ctrl-D exits, Ctrl-C cancels, Tab completes, :help lists the commands.\n"
    )
    sys.stdout.flush()


def run_terminal(*, debug: bool = False) -> int:
    from autodiff_cli.cli.terminal import wants_color

    state = ReplState(debug=debug, styled=wants_color(sys.stdout))
    _banner()
    if is_dumb_terminal():
        return _run_line_by_line(state)
    prompt = PromptSession(
        history=_history(),
        completer=ReplCompleter(state),
        lexer=PygmentsLexer(PythonLexer) if state.styled else None,
        key_bindings=_key_bindings(state),
        multiline=True,
        prompt_continuation=lambda width, line_number, wrap_count: PS2,
        complete_while_typing=False,
        enable_history_search=True,
    )
    while True:
        try:
            text = prompt.prompt(PS1)
        except KeyboardInterrupt:
            sys.stdout.write("KeyboardInterrupt\n")
            continue
        except EOFError:
            return 0
        try:
            _run_input(state, text)
        except QuitRepl:
            return 0


def _run_line_by_line(state: ReplState) -> int:
    """A dumb terminal: one line per prompt, `... ` while a statement is unfinished."""
    bindings = KeyBindings()

    @bindings.add("c-d")
    def _end(event: Any) -> None:  # the dumb prompt has no Ctrl-D binding of its own
        if not event.current_buffer.text:
            event.app.exit(exception=EOFError)
        else:
            event.current_buffer.delete()

    prompt = PromptSession(
        history=_history(), completer=ReplCompleter(state), key_bindings=bindings
    )
    reader = StatementReader(state.session.is_complete)
    while True:
        try:
            line = prompt.prompt(PS2 if reader.pending else PS1)
        except KeyboardInterrupt:
            sys.stdout.write("\nKeyboardInterrupt\n")
            reader.reset()
            continue
        except EOFError:
            sys.stdout.write("\n")
            return 0
        try:
            if not reader.pending and is_meta_command(line):
                _run_input(state, line)
                continue
            for chunk in reader.feed(line):
                _run_input(state, chunk)
        except QuitRepl:
            return 0
