"""Loading the Lark grammar (LALR + indenter), with the parse tables cached on disk."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

GRAMMAR_NAME = "autodiff.lark"
START_SYMBOLS = ["file_input", "eval_input"]
MAX_BRACKET_DEPTH = 200  # as CPython: "too many nested parentheses"
MAX_INDENT_DEPTH = 100  # as CPython: "too many levels of indentation"

_OPENERS = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}
_CLOSERS = {"RPAR": ")", "RSQB": "]", "RBRACE": "}"}
_MATCHING = {"(": ")", "[": "]", "{": "}"}


class LayoutError(Exception):
    """A bracket or indentation problem found while injecting indentation tokens.

    `line`/`column` locate it; `at_end` is true when more input could still fix it.
    """

    def __init__(
        self,
        message: str,
        line: int,
        column: int,
        *,
        at_end: bool = False,
        indentation: bool = False,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.at_end = at_end
        self.indentation = indentation

    @classmethod
    def at_token(cls, message: str, token: Any, *, at_end: bool = False) -> LayoutError:
        return cls(message, token.line, token.column, at_end=at_end)


def grammar_path() -> Path:
    """The grammar file: inside the package when installed, else the checkout's `grammar/`."""
    package_dir = Path(__file__).resolve().parent.parent
    for candidate in (
        package_dir / "grammar" / GRAMMAR_NAME,
        package_dir.parent / "grammar" / GRAMMAR_NAME,
    ):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"grammar file {GRAMMAR_NAME} not found near {package_dir}")


def _cache_file(grammar_text: str) -> str | bool:
    """A writable cache path for the LALR tables (keyed by the grammar), or False for no cache."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    directory = Path(base) / "autodiff"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    if not os.access(directory, os.W_OK):
        return False
    import lark

    digest = hashlib.sha256(f"{lark.__version__}\n{grammar_text}".encode()).hexdigest()[:16]
    return str(directory / f"grammar-{digest}.lark-cache")


def _indenter_class() -> type:
    from lark.indenter import PythonIndenter

    class ScriptIndenter(PythonIndenter):
        """Python's indenter, plus bracket matching and a nesting limit reported as errors."""

        def _process(self, stream):  # noqa: ANN001, ANN202 - Lark's PostLex protocol
            brackets: list[Any] = []
            token = None
            for token in stream:
                kind = token.type
                if kind == self.NL_type:
                    if not brackets:
                        yield from self.handle_NL(token)
                    continue
                if kind in _OPENERS:
                    brackets.append(token)
                    if len(brackets) > MAX_BRACKET_DEPTH:
                        raise LayoutError.at_token("too many nested parentheses", token)
                elif kind in _CLOSERS:
                    if not brackets:
                        raise LayoutError.at_token(f"unmatched '{token}'", token)
                    opener = brackets.pop()
                    if _MATCHING[str(opener)] != str(token):
                        raise LayoutError.at_token(
                            f"closing parenthesis '{token}' does not match opening "
                            f"parenthesis '{opener}'",
                            token,
                        )
                self.paren_level = len(brackets)
                yield token
            if brackets:
                raise LayoutError.at_token(
                    f"'{brackets[-1]}' was never closed", brackets[-1], at_end=True
                )
            while len(self.indent_level) > 1:
                self.indent_level.pop()
                yield self._dedent_at_end(token)

        def handle_NL(self, token):  # noqa: ANN001, ANN202, N802 - Lark's name
            indent_str = token.rsplit("\n", 1)[1]
            indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
            if indent < self.indent_level[-1] and indent not in self.indent_level:
                raise LayoutError(
                    "unindent does not match any outer indentation level",
                    token.end_line,
                    token.end_column,
                    indentation=True,
                )
            if indent > self.indent_level[-1] and len(self.indent_level) > MAX_INDENT_DEPTH:
                raise LayoutError(
                    "too many levels of indentation",
                    token.end_line,
                    token.end_column,
                    indentation=True,
                )
            yield from super().handle_NL(token)

        def _dedent_at_end(self, token):  # noqa: ANN001, ANN202
            from lark.lexer import Token

            if token is None:
                return Token(self.DEDENT_type, "", 0, 1, 1, 1, 1, 0)
            return Token.new_borrow_pos(self.DEDENT_type, "", token)

    return ScriptIndenter


@lru_cache(maxsize=1)
def get_parser() -> Any:
    """The shared Lark LALR parser (built once per process; tables cached across processes)."""
    from lark import Lark

    import autodiff_cli.lang.lark_loader  # noqa: F401

    path = grammar_path()
    text = path.read_text(encoding="utf-8")
    options: dict[str, Any] = dict(
        parser="lalr",
        postlex=_indenter_class()(),
        start=START_SYMBOLS,
        propagate_positions=True,
        maybe_placeholders=True,
        lexer="basic",
    )
    cache = _cache_file(text)
    if cache:
        try:
            return Lark(text, cache=cache, **options)
        except OSError:
            pass
    return Lark(text, **options)
