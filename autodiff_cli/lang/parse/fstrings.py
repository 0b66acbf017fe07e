"""String literals: decoding escapes and splitting f-strings into text and `{expr}` fields."""

from __future__ import annotations

import ast
import re
import warnings
from typing import Any

from autodiff_cli.lang.errors import CompileError, Location, Source
from autodiff_cli.lang.parse.parser import ParseFailure, parse
from autodiff_cli.lang.parse.syntax_tree import Token, Tree

_ESCAPE = re.compile(
    r"\\(N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|\n|.)", re.S
)


class StringSyntaxError(Exception):
    """A malformed literal; `offset` is the position within the token text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


class Field:
    """A `{expr!conv:spec}` replacement field; `offset` is where `expr` starts in the token,
    `debug_text` what `{x=}` prints before the value, `tree` the parsed expression (set by
    `prepare_fstring`)."""

    __slots__ = ("expression", "offset", "conversion", "spec", "debug_text", "tree")

    def __init__(
        self,
        expression: str,
        offset: int,
        conversion: str | None,
        spec: list[str | Field] | None,
        debug_text: str | None,
    ) -> None:
        self.expression = expression
        self.offset = offset
        self.conversion = conversion
        self.spec = spec
        self.debug_text = debug_text
        self.tree: Any = None


def split_prefix(token: str) -> tuple[str, str, str]:
    """(prefix, quote, body) of a string token such as rf'''...'''."""
    index = 0
    while token[index] not in "'\"":
        index += 1
    prefix, rest = token[:index].lower(), token[index:]
    quote = rest[:3] if rest[:3] in ('"""', "'''") else rest[0]
    return prefix, quote, rest[len(quote) : len(rest) - len(quote)]


def decode_plain(token: str) -> str:
    """The value of a string or bytes literal (not an f-string) token."""
    prefix, _, body = split_prefix(token)
    if "b" not in prefix and ("\\" not in body or "r" in prefix) and "\0" not in body:
        return body  # nothing to decode (most literals): no warnings state, no `compile`
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(token)


def _decode_escapes(text: str, raw: bool) -> str:
    if raw or "\\" not in text:
        return text

    def replace(match: re.Match) -> str:
        escape = match.group(0)
        if escape == "\\\n":
            return ""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return ast.literal_eval(f'"{escape}"') if escape != '\\"' else '"'
            except (SyntaxError, ValueError):
                raise StringSyntaxError(
                    f"invalid escape sequence '{escape}'", match.start()
                ) from None

    return _ESCAPE.sub(replace, text)


def parse_fstring(token: str) -> list[str | Field]:
    """Split an f-string token into decoded text and fields."""
    prefix, quote, body = split_prefix(token)
    start = len(prefix) + len(quote)
    parts, _ = _split(body, 0, start, raw="r" in prefix, nested=False)
    return parts


def _split(
    body: str, index: int, base: int, *, raw: bool, nested: bool
) -> tuple[list[str | Field], int]:
    """Parse text and fields from `index`; in a format spec (`nested`) stop at a lone '}'."""
    parts: list[str | Field] = []
    text: list[str] = []
    while index < len(body):
        char = body[index]
        if char == "{":
            if body.startswith("{{", index) and not nested:
                text.append("{")
                index += 2
                continue
            if text:
                parts.append(_decode_escapes("".join(text), raw))
                text = []
            field, index = _field(body, index + 1, base, raw=raw)
            parts.append(field)
            continue
        if char == "}":
            if nested:
                break
            if body.startswith("}}", index):
                text.append("}")
                index += 2
                continue
            raise StringSyntaxError("f-string: single '}' is not allowed", base + index)
        text.append(char)
        index += 1
    if text:
        parts.append(_decode_escapes("".join(text), raw))
    return parts, index


def _field(body: str, index: int, base: int, *, raw: bool) -> tuple[Field, int]:
    start = index
    depth = 0
    quote = ""
    while index < len(body):
        char = body[index]
        if quote:
            if body.startswith(quote, index):
                index += len(quote)
                quote = ""
                continue
        elif char in "'\"":
            quote = body[index : index + 3] if body[index : index + 3] in ('"""', "'''") else char
            index += len(quote)
            continue
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif depth == 0 and (
            char == "}" or char == ":" or (char == "!" and body[index + 1 : index + 2] != "=")
        ):
            break
        elif char == "\\":
            raise StringSyntaxError(
                "f-string expression part cannot include a backslash", base + index
            )
        index += 1
    if index >= len(body):
        raise StringSyntaxError("f-string: expecting '}'", base + start - 1)
    expression = body[start:index]
    debug_text = None
    stripped = expression.rstrip()
    if stripped.endswith("=") and not stripped.endswith(("==", "!=", "<=", ">=")):
        debug_text = expression
        expression = stripped[:-1]
    if not expression.strip():
        raise StringSyntaxError("f-string: empty expression not allowed", base + start)
    conversion = None
    if body[index] == "!":
        conversion = body[index + 1 : index + 2]
        if conversion not in ("r", "s", "a"):
            raise StringSyntaxError(
                "f-string: invalid conversion character: expected 's', 'r', or 'a'", base + index
            )
        index += 2
    spec = None
    if index < len(body) and body[index] == ":":
        spec, index = _split(body, index + 1, base, raw=raw, nested=True)
    if index >= len(body) or body[index] != "}":
        raise StringSyntaxError("f-string: expecting '}'", base + start - 1)
    if debug_text is not None and conversion is None and spec is None:
        conversion = "r"
    return Field(expression, base + start, conversion, spec, debug_text), index + 1


def token_location(source: Any, token: Any, offset: int) -> Any:
    """The Location of character `offset` of a string token."""
    text = str(token)[:offset]
    line = token.line + text.count("\n")
    column = offset - text.rfind("\n") if "\n" in text else token.column + offset
    return Location(source, line, column)


def prepare_fstring(token: Any, source: Any) -> list[str | Field]:
    """Split an f-string token and parse each field's expression (located errors)."""
    try:
        pieces = parse_fstring(str(token))
    except StringSyntaxError as error:
        raise CompileError(str(error), token_location(source, token, error.offset)) from None

    def visit(items: list[str | Field]) -> None:
        for item in items:
            if isinstance(item, str):
                continue
            where = token_location(source, token, item.offset)
            text = f"({item.expression})"
            try:
                tree = parse(text, Source(source.filename, (text,)), start="eval_input")
            except ParseFailure as failure:
                raise CompileError(f"f-string: {failure.error.message}", where) from None
            item.tree = tree.children[0]
            _relocate(item.tree, where)
            if item.spec:
                visit(item.spec)

    visit(pieces)
    return pieces


def _relocate(node: Any, where: Any) -> None:
    """Give a field's nodes the location of the field in the script."""
    if isinstance(node, Tree):
        node.meta.line, node.meta.column = where.line, where.column
        node.meta.empty = False
        for child in node.children:
            _relocate(child, where)
    elif isinstance(node, Token):
        node.line, node.column = where.line, where.column
