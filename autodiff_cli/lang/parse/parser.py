"""Parsing source text into a syntax tree; every parse failure becomes a located ScriptError."""

from __future__ import annotations

from typing import Any

from autodiff_cli.lang.errors import ScriptError, Source
from autodiff_cli.lang.parse.grammar import LayoutError, get_parser
from autodiff_cli.lang.parse.syntax_errors import (
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
)

# Terminals that can start an expression: "expected an expression" covers them all.
_EXPRESSION_STARTS = {
    "NAME", "DEC_NUMBER", "HEX_NUMBER", "BIN_NUMBER", "OCT_NUMBER", "FLOAT_NUMBER",
    "IMAG_NUMBER", "STRING", "LONG_STRING",
}  # fmt: skip
_NUMBER_TYPES = {"DEC_NUMBER", "HEX_NUMBER", "BIN_NUMBER", "OCT_NUMBER", "FLOAT_NUMBER",
                 "IMAG_NUMBER"}  # fmt: skip
_QUOTES = "'\""
# Tokens that close a construct: named on their own when an operator could also follow.
_STRUCTURAL = ["':'", "'in'", "'import'", "')'", "']'", "'}'", "'else'"]


class ParseFailure(Exception):
    """A syntax error before it is turned into a ScriptError; `at_end`: more input may fix it."""

    def __init__(self, error: ScriptError, at_end: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.at_end = at_end


def decode_source(source: str | bytes, filename: str) -> str:
    """Source text as str with '\\n' line ends; undecodable bytes are a located syntax error."""
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as error:
            before = source[: error.start]
            line = before.count(b"\n") + 1
            line_start = before.rfind(b"\n") + 1
            prefix = before[line_start:].decode("utf-8", "replace")
            line_end = source.find(b"\n", error.start)
            shown = source[line_start : None if line_end < 0 else line_end]
            raise ScriptError(
                "SyntaxError",
                f"(unicode error) 'utf-8' codec can't decode byte 0x{source[error.start]:02x} "
                f"in line {line}: {error.reason}",
                filename,
                line,
                len(prefix) + 1,
                shown.decode("utf-8", "replace"),
            ) from None
    source = source.removeprefix("\ufeff")
    return source.replace("\r\n", "\n").replace("\r", "\n")


def parse(text: str, source: Source, start: str = "file_input") -> Any:
    """Parse normalised text (see `decode_source`) with the given start symbol."""
    _check_no_null(text, source)
    _check_first_indent(text, source)
    prepared = text.rstrip(" \t\f") + "\n"
    try:
        return get_parser().parse(prepared, start=start)
    except (UnexpectedInput, LayoutError) as error:
        raise _failure(error, source, prepared) from None


def _check_no_null(text: str, source: Source) -> None:
    """As Python: a NUL anywhere (a string literal, a comment) is a syntax error, located."""
    at = text.find("\0")
    if at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        message = "source code cannot contain null bytes"
        line, column = text.count("\n", 0, at) + 1, at - line_start + 1
        raise ParseFailure(_error(source, "SyntaxError", message, line, column), at_end=False)


def _check_first_indent(text: str, source: Source) -> None:
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip(" \t\f")
        if not stripped or stripped.startswith("#"):
            continue
        if stripped != line:
            error = _error(source, "IndentationError", "unexpected indent", number,
                           len(line) - len(stripped) + 1)  # fmt: skip
            raise ParseFailure(error, at_end=False)
        return


def _error(source: Source, type_name: str, message: str, line: int, column: int) -> ScriptError:
    return ScriptError(type_name, message, source.filename, line, column, source.line(line))


def _failure(error: Exception, source: Source, text: str) -> ParseFailure:
    if isinstance(error, LayoutError):
        kind = "IndentationError" if error.indentation else "SyntaxError"
        return ParseFailure(
            _error(source, kind, str(error), error.line, error.column), at_end=error.at_end
        )
    if isinstance(error, UnexpectedCharacters):
        return _unexpected_character(error, source, text)
    if isinstance(error, UnexpectedToken):
        return _unexpected_token(error, source)
    raise error


def _unexpected_character(error: Any, source: Source, text: str) -> ParseFailure:
    char = error.char
    at_end = False
    if char in _QUOTES:
        rest = text[error.pos_in_stream :]
        if rest.startswith(char * 3):
            message = "unterminated triple-quoted string literal"
            at_end = True
        else:
            message = "unterminated string literal"
    elif char == "\\":
        message = "unexpected character after line continuation character"
    elif char.isprintable() and not char.isspace():
        message = f"invalid character '{char}' (U+{ord(char):04X})"
    else:
        message = f"invalid non-printable character U+{ord(char):04X}"
    return ParseFailure(_error(source, "SyntaxError", message, error.line, error.column), at_end)


def _unexpected_token(error: UnexpectedToken, source: Source) -> ParseFailure:
    token = error.token
    kind = token.type
    # `expected` also lists terminals that reduce and are then rejected; `accepts` probes each
    # on a copy of the parser state and keeps those that are shifted
    expected = error.accepts
    line, column = token.line, token.column
    if kind in ("_INDENT", "_DEDENT"):
        line, column = token.end_line, token.end_column
    if kind == "$END":
        line = len(source.lines) or 1
        column = len(source.line(line)) + 1
        return ParseFailure(
            _error(source, "SyntaxError", "unexpected end of input", line, column), at_end=True
        )
    if "_INDENT" in expected and kind != "_INDENT":
        message = "expected an indented block"
        return ParseFailure(_error(source, "IndentationError", message, line, column), False)
    if kind == "_INDENT":
        return ParseFailure(
            _error(source, "IndentationError", "unexpected indent", line, column), False
        )
    if kind == "_DEDENT":
        message = "unexpected dedent"
        return ParseFailure(_error(source, "IndentationError", message, line, column), False)
    message = f"unexpected {_describe_token(token)}"
    wanted = _describe_expected(expected, get_parser())
    if wanted:
        message += f"; expected {wanted}"
    return ParseFailure(_error(source, "SyntaxError", message, line, column), at_end=False)


def _describe_token(token: Any) -> str:
    kind = token.type
    if kind == "_NEWLINE":
        return "end of line" if not str(token).lstrip().startswith("#") else "comment"
    if kind == "NAME":
        return f"name '{token}'"
    if kind in _NUMBER_TYPES:
        return f"number {token}"
    if kind in ("STRING", "LONG_STRING"):
        return "string"
    return f"'{token}'"


def _describe_expected(expected: set[str], parser: Any) -> str:
    if expected & _EXPRESSION_STARTS - {"NAME"}:
        return "an expression"
    texts = sorted(f"'{text}'" for text in map(parser.literal, expected) if text)
    if "NAME" in expected:
        return " or ".join(["a name", *texts]) if len(texts) <= 3 else "a name"
    structural = [text for text in _STRUCTURAL if text in texts]
    if "'<'" in texts and "'in'" in structural:  # `in` is the comparison operator here
        structural.remove("'in'")
    if structural and "_NEWLINE" not in expected:
        return " or ".join(structural)
    if "_NEWLINE" in expected:
        return (
            "an operator or end of line" if len(texts) > 3 else " or ".join([*texts, "end of line"])
        )
    if len(texts) > 4:
        return "an operator"
    return " or ".join(texts)
