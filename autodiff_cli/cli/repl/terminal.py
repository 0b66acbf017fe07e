"""The interactive REPL on a terminal: prompt_toolkit for input, Rich for tables and trees.

Persistent history (under $XDG_STATE_HOME/autodiff, else ~/.local/state/autodiff) with suggestions
from it while typing, completion of names, attributes and methods, the signature of the call
being typed in the bottom toolbar, Python syntax highlighting, multi-line blocks with auto-indent.
On a dumb terminal (TERM=dumb: Emacs shells, test harnesses) lines are read one at a time with
`>>> ` and `... ` prompts instead of the multi-line editor.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.utils import is_dumb_terminal
from pygments.lexers.python import PythonLexer

from autodiff_cli.cli.jail.clean_start import setting
from autodiff_cli.cli.output.terminal import wants_color
from autodiff_cli.cli.repl.commands import QuitRepl, ReplState, is_meta_command
from autodiff_cli.cli.repl.completion import candidates
from autodiff_cli.cli.repl.help import banner
from autodiff_cli.cli.repl.input import COMPOUND, PS1, PS2, StatementReader, cannot_become_valid
from autodiff_cli.cli.repl.session import Session, open_session, run_chunk

_DEDENTERS = re.compile(r"\s*(return|pass|break|continue|raise)\b")
INDENT = "    "


def history_path() -> Path:
    """$XDG_STATE_HOME/autodiff/history, by default ~/.local/state/autodiff/history (both read
    from the user's environment at start-up: this process's own is the clean one)."""
    home = setting("HOME") or str(Path.home())
    state_home = setting("XDG_STATE_HOME") or str(Path(home) / ".local" / "state")
    return Path(state_home) / "autodiff" / "history"


def _history() -> Any:
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError:  # a read-only home: history for this session only
        return InMemoryHistory()
    return FileHistory(str(path))


class ReplCompleter(Completer):
    """Names in the session, builtins and keywords; `name.` gives attributes and methods. Asks
    the session (a child process: this one holds no namespace), or reads a ReplState here."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def candidates(self, text: str) -> tuple[str, list[str]]:
        """(the word being completed, the names that may complete it)."""
        if isinstance(self.session, ReplState):
            return candidates(self.session, text)
        return self.session.complete(text)

    def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
        word, names = self.candidates(document.text_before_cursor)
        for name in names:
            yield Completion(name, start_position=-len(word))


class SignatureToolbar:
    """The bottom toolbar: the signature of the call being typed (`x.backward(` shows
    `backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)`), asked of the
    session once per text before the cursor."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self._last: tuple[str, str] = ("", "")

    def __call__(self) -> str:
        text = get_app().current_buffer.document.text_before_cursor
        if "(" not in text:
            return ""
        if text != self._last[0]:
            hint = self.session.signature(text)
            self._last = (text, "".join(char for char in hint if char.isprintable()))
        return self._last[1]


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
    """Whether Enter runs the input: a meta-command, a complete simple statement, a block
    (def, for, ...) followed by a blank line, or a block no further line can make valid."""
    if not text.strip() or is_meta_command(text) and "\n" not in text.strip():
        return True
    lines = text.split("\n")
    if COMPOUND.match(text.lstrip()) or len(lines) > 1 and lines[0].rstrip().endswith(":"):
        if not lines[-1].strip() and is_complete(text.rstrip() + "\n\n"):
            return True
        return cannot_become_valid(text + "\n", is_complete)
    return is_complete(text + "\n")


def _key_bindings(session: Session) -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("enter")
    def _enter(event: Any) -> None:
        buffer = event.current_buffer
        text = buffer.text
        if buffer.document.is_cursor_at_the_end and is_finished(text, session.is_complete):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n" + next_indent(buffer.document.text_before_cursor))

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:  # Alt-Enter: a new line even when the input is complete
        event.current_buffer.insert_text("\n")

    return bindings


def _run_input(session: Session, text: str) -> None:
    """Run what was typed; Ctrl-C stops it and the session goes on."""
    try:
        if is_meta_command(text) or text.strip():
            run_chunk(session, text if is_meta_command(text) else text.rstrip() + "\n")
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("KeyboardInterrupt\n")
        sys.stderr.flush()


def _banner() -> None:
    sys.stdout.write(banner() + "\n")
    sys.stdout.flush()


def run_terminal(*, debug: bool = False, limits: Any = None) -> int:
    session = open_session(debug=debug, styled=wants_color(sys.stdout), limits=limits)
    try:
        _banner()
        if is_dumb_terminal():
            return _run_line_by_line(session)
        return _run_editor(session)
    finally:
        session.close()


def _run_editor(session: Session) -> int:
    prompt = PromptSession(
        history=_history(),
        completer=ReplCompleter(session),
        lexer=PygmentsLexer(PythonLexer) if session.styled else None,
        key_bindings=_key_bindings(session),
        multiline=True,
        prompt_continuation=lambda width, line_number, wrap_count: PS2,
        complete_while_typing=False,
        enable_history_search=True,
        auto_suggest=AutoSuggestFromHistory(),  # the grey rest of a past input; Right takes it
        bottom_toolbar=SignatureToolbar(session),
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
            _run_input(session, text)
        except QuitRepl:
            return 0


def _run_line_by_line(session: Session) -> int:
    """A dumb terminal: one line per prompt, `... ` while a statement is unfinished."""
    bindings = KeyBindings()

    @bindings.add("c-d")
    def _end(event: Any) -> None:  # the dumb prompt has no Ctrl-D binding of its own
        if not event.current_buffer.text:
            event.app.exit(exception=EOFError)
        else:
            event.current_buffer.delete()

    prompt = PromptSession(
        history=_history(), completer=ReplCompleter(session), key_bindings=bindings
    )
    reader = StatementReader(session.is_complete, eager_errors=True)
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
                _run_input(session, line)
                continue
            for chunk in reader.feed(line):
                _run_input(session, chunk)
        except QuitRepl:
            return 0
