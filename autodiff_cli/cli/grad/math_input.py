"""Math as people type it, for `grad`'s expression: `2x`, `3(x+1)`, `(x+1)(x-1)`, `x²`, `√x`,
`2·x`, `x÷2`, `−x`, `π`, `ln(x)`, `|x|`, `e^x` rewritten to the Python spelling the language
parses (`2*x`, `x**2`, `sqrt(x)`, `log(x)`, `abs(x)`, `exp(x)`).

The rewrite works on tokens, never inside strings, and keeps for every character it writes the
offset of the character the user typed it for, so an error's caret still points into what was
typed. Only the unambiguous forms are read: `sin x` and `xy` (when `x` and `y` are `--at` names
and `xy` is not) are refused with the Python spelling as a hint. Scripts never go through this.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Container, Mapping
from typing import Any

from autodiff_cli.cli.grad.math_gate import split_names
from autodiff_cli.cli.grad.math_operands import Out, operand_end, primary_end
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import ScriptError

EXPR_NAME = "<expr>"
_TOKEN = re.compile(
    r"(?P<space>\s+|\#[^\n]*)"
    r"|(?P<string>[rRbBuUfF]{0,2}(?:'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"))"
    r"|(?P<number>0[xXoObB][0-9a-fA-F_]+|(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)"
    r"(?:[eE][+-]?[0-9]+)?j?)"
    r"|(?P<name>(?:(?![⁰¹²³⁴⁵⁶⁷⁸⁹])[^\W\d])(?:(?![⁰¹²³⁴⁵⁶⁷⁸⁹])\w)*)"
    r"|(?P<super>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)"
    r"|(?P<op>\*\*|//|==|!=|<=|>=|->|:=|[-+*/%@<>=()\[\]{},.:;~&^|]|[−·×÷√⋅∙])"
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_OPERATORS = {"−": "-", "·": "*", "⋅": "*", "∙": "*", "×": "*", "÷": "/", "^": "**"}
# names the expression binds itself (`y = ...`, `for e in`, `lambda e:`): variables, so `e` stays
# `e` and `ln` stays `ln`
_ASSIGNED = re.compile(r"([^\W\d]\w*)\s*=(?!=)|\b(?:for|lambda|as)\s+([^\W\d]\w*)")


class Token:
    __slots__ = ("kind", "start", "text")

    def __init__(self, kind: str, text: str, start: int) -> None:
        self.kind, self.text, self.start = kind, text, start


class Rewritten:
    """The Python spelling of a typed expression and, per character of it, the typed offset."""

    def __init__(self, typed: str, python: str, origins: list[int]) -> None:
        self.typed, self.python, self.origins = typed, python, origins

    @property
    def changed(self) -> bool:
        return self.python != self.typed

    def relocate(self, error: ScriptError) -> None:
        """Point a located error of the Python spelling at the text the user typed."""
        if error.line < 1 or error.filename != EXPR_NAME:
            return
        lines = self.python.split("\n")
        offset = sum(len(line) + 1 for line in lines[: error.line - 1]) + max(error.column - 1, 0)
        _locate(error, self.typed, self.origins[min(offset, len(self.origins) - 1)])


def _locate(error: ScriptError, text: str, offset: int) -> None:
    before = text[:offset]
    error.line = before.count("\n") + 1
    error.column = offset - (before.rfind("\n") + 1) + 1
    error.source_line = text.split("\n")[error.line - 1]


def _tokens(text: str) -> list[Token]:
    tokens, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:  # a character the language refuses itself, with its own message
            tokens.append(Token("other", text[position], position))
            position += 1
            continue
        tokens.append(Token(match.lastgroup or "other", match.group(), position))
        position = match.end()
    return tokens


def rewrite(text: str, at_names: Container[str], namespace: Mapping[str, Any]) -> Rewritten:
    """The Python spelling of `text`. `at_names` are the `--at` names (an `e` among them is a
    variable, not Euler's number); `namespace` holds the functions and constants the expression
    may use. Raises a located ScriptError (a SyntaxError) for an ambiguous form."""
    tokens = _tokens(text)
    assigned = {name for pair in _ASSIGNED.findall(text) for name in pair if name}
    mine = assigned | {name for name in ("e", "π", "ln") if name in at_names}
    _refuse_ambiguous(text, tokens, at_names, namespace, assigned)
    out = _spell(tokens, mine)
    out = _prefix_forms(out, euler="e" not in mine)
    python, origins = "", []
    for piece in out:
        python += piece.space + piece.text
        origins.extend(range(piece.space_origin, piece.space_origin + len(piece.space)))
        origins.extend([piece.origin] * len(piece.text))
    return Rewritten(text, python, origins + [len(text)])


def _spell(tokens: list[Token], mine: set[str]) -> list[Out]:
    """Pass one: each token in its Python spelling, `*` where a product was written by
    juxtaposition, `|...|` as `abs(...)`; `√` is left for pass two."""
    out: list[Out] = []
    bars, ends_operand, ends_value, space, space_at = 0, False, False, "", 0
    for token in tokens:
        kind, spelled, start = token.kind, token.text, token.start
        if kind == "space":
            space, space_at = space + spelled, space_at if space else start
            continue
        if "\n" in space:  # a new line, a new statement: nothing joins across it
            ends_operand = ends_value = False
        closing_bar = spelled == "|" and bars > 0 and ends_value
        opening_bar = spelled == "|" and not closing_bar and (ends_operand or not ends_value)
        starts = (kind == "name" and not keyword.iskeyword(spelled)) or kind == "number"
        if ends_operand and (starts or spelled in ("(", "√") or opening_bar):
            out.append(Out("*", start, space, space_at))
            space = " " if space else ""
            space_at = start
        if kind == "super":
            out += [Out("**", start, space, space_at), Out(spelled.translate(_SUPERSCRIPTS), start)]
        elif opening_bar or closing_bar:
            out += (
                [Out("abs", start, space, space_at), Out("(", start)]
                if opening_bar
                else [Out(")", start, space, space_at)]
            )
            bars += 1 if opening_bar else -1
        elif kind == "name" and spelled in ("π", "ln") and spelled not in mine:
            out.append(Out({"π": "pi", "ln": "log"}[spelled], start, space, space_at))
        else:
            out.append(Out(_OPERATORS.get(spelled, spelled), start, space, space_at))
        ends_operand = kind in ("number", "super") or spelled == ")" or closing_bar
        ends_value = (
            ends_operand or spelled == "]" or (kind == "name" and not keyword.iskeyword(spelled))
        )
        space = ""
    if space:  # trailing white space or a comment, kept as typed
        out.append(Out("", space_at + len(space), space, space_at))
    return out


def _prefix_forms(out: list[Out], *, euler: bool) -> list[Out]:
    """Pass two: `√x` -> `sqrt(x)`, `√(...)` -> `sqrt(...)`, and (Euler's `e`) `e**x` ->
    `exp(x)`, each operand itself rewritten the same way."""
    result: list[Out] = []
    index = 0
    while index < len(out):
        piece = out[index]
        after_dot = bool(result) and result[-1].text == "."
        following = out[index + 1].text if index + 1 < len(out) else ""
        if piece.text == "√":  # as -x**2 is -(x**2), √x² is √(x²)
            end = operand_end(out, index + 1)
            result += _called("sqrt", piece, _prefix_forms(out[index + 1 : end], euler=euler))
            index = end
        elif euler and piece.text == "e" and following == "**" and not after_dot:
            end = operand_end(out, index + 2)
            result += _called("exp", piece, _prefix_forms(out[index + 2 : end], euler=euler))
            index = end
        else:
            result.append(piece)
            index += 1
    return result


def _called(function: str, where: Out, operand: list[Out]) -> list[Out]:
    """`function(operand)`, or `function` + operand when it is one parenthesized group."""
    head = Out(function, where.origin, where.space, where.space_origin)
    if not operand:
        return [head]
    if operand[0].text == "(" and primary_end(operand, 0) == len(operand):
        return [head, *operand]
    return [head, Out("(", where.origin), *operand, Out(")", operand[-1].origin)]


def _refuse_ambiguous(
    text: str,
    tokens: list[Token],
    at_names: Container[str],
    namespace: Mapping[str, Any],
    assigned: set[str],
) -> None:
    """`sin x` (a function and its argument without parentheses), `x y` (two names side by
    side) and `xy` (not a name, but --at names run together): refused, the spelling shown."""
    significant = [t for t in tokens if t.kind != "space"]
    for index, token in enumerate(significant):
        if token.kind != "name" or keyword.iskeyword(token.text):
            continue
        if index and significant[index - 1].text == ".":
            continue
        following = significant[index + 1] if index + 1 < len(significant) else None
        name = token.text
        gap = text[token.start + len(name) : following.start] if following is not None else ""
        if following is not None and following.kind in ("name", "number") and "\n" not in gap:
            if following.kind == "name" and keyword.iskeyword(following.text):
                continue
            is_function = name == "ln" or (name not in at_names and callable(namespace.get(name)))
            spelled = f"{name}({following.text})" if is_function else f"{name}*{following.text}"
            _refuse(text, token, f"{name} {following.text}", spelled)
        known = name in at_names or name in namespace or name in assigned
        if following is not None and following.text == "(" or known:
            continue
        parts = split_names(name, at_names)
        if parts:
            _refuse(text, token, name, "*".join(parts))


def _refuse(text: str, token: Token, written: str, spelled: str) -> None:
    message = _("{written!r} is ambiguous here; in Python spelling: {spelled}").format(
        written=written, spelled=spelled
    )
    error = ScriptError("SyntaxError", message, EXPR_NAME, 1, 1)
    _locate(error, text, token.start)
    raise error
