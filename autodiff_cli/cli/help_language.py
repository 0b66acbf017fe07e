"""`--help` in the user's language. Typer builds the commands' help from strings fixed when
`commands` loads, and `--help` is eager: it prints before any option's callback (`--lang`'s
among them) runs. So before Click parses anything, `prepare` reads `--lang` from the arguments
(else the environment decides, as `i18n` read it), and translates each command's help, epilog
and options' help in place through the project's catalogue. Click's and Typer's own words
("Usage:", "Options", "Show this message and exit.") come through the standard gettext domain,
which `i18n` binds to the same catalogue."""

from __future__ import annotations

import re
from collections.abc import Sequence

import click

from autodiff_cli import i18n

_N = str  # marks a text for the catalogue

# Click's and Typer's own words that `autodiff`'s help and usage errors show: listed so that
# the catalogue test asks for their translation (they are looked up through gettext's domain).
LIBRARY_WORDS = (
    _N("Usage:"), _N("Options"), _N("Arguments"), _N("Commands"), _N("Error"),
    _N("[default: {}]"), _N("[required]"), _N("Show this message and exit."),
    _N("Try [blue]'{command_path} {help_option}'[/] for help."),
    _N("Try '{command} {option}' for help."), _N("Error: {message}"),
    _N("Missing argument"), _N("Missing option"), _N("No such option {name!r}."),
    _N("No such command {name!r}."), _N("Invalid value for {param_hint}: {message}"),
    _N("Aborted."), _N("Aborted!"),
)  # fmt: skip


def language_argument(arguments: Sequence[str]) -> str | None:
    """The value of `--lang` (`--lang zh`, `--lang=zh`) before any `--`, else None."""
    for index, argument in enumerate(arguments):
        if argument == "--":
            return None
        if argument == "--lang" and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith("--lang="):
            return argument.removeprefix("--lang=")
    return None


def prepare(command: click.Command, arguments: Sequence[str]) -> None:
    """Choose the language from `arguments` and translate `command`'s help tree into it."""
    code = language_argument(arguments)
    if code is not None:
        try:
            i18n.set_language(code)
        except ValueError:  # `--lang`'s own check reports it
            return
    if i18n.language() != "en":
        translate_tree(command)


def help_strings(command: click.Command) -> list[str]:
    """Every help text of `command` and its subcommands (the catalogue must translate each)."""
    found: list[str] = []
    for each in _commands(command):
        found += [text for text in (each.help, each.short_help, each.epilog) if text]
        found += [param.help for param in each.params if getattr(param, "help", None)]
    return found


def translate_tree(command: click.Command) -> None:
    for each in _commands(command):
        for name in ("help", "short_help", "epilog"):
            text = getattr(each, name)
            if text:
                setattr(each, name, breakable(i18n.gettext(text)))
        for param in each.params:
            if getattr(param, "help", None):
                param.help = breakable(i18n.gettext(param.help))  # type: ignore[attr-defined]


_CLAUSE_END = re.compile(r"([，；：。、）])(?=[^\s，；：。、）])")
_ASIDE = re.compile(r"(?<=[^\s（])（")


def breakable(text: str) -> str:
    """Chinese text Rich can wrap: Rich breaks lines at spaces only, and cuts a longer run
    with "…" in the options table, so a space follows each clause's punctuation and comes before an aside in brackets."""
    return _ASIDE.sub(" （", _CLAUSE_END.sub(r"\1 ", text))


def _commands(command: click.Command) -> list[click.Command]:
    found = [command]
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            found += _commands(sub)
    return found
