"""The extent of an operand in a list of Python-spelled tokens, for `math_input`'s prefix forms
(`√x`, `e^x`): a primary (name, number or parenthesized group, with its calls, subscripts and
attributes), and for a power's exponent the chain of `**` that Python binds to the right."""

from __future__ import annotations

_OPENERS = {"(": ")", "[": "]", "{": "}"}


class Out:
    """A token of the Python spelling: its text, the typed offset it stands for, and the white
    space (and comments) typed before it, from offset `space_origin`."""

    __slots__ = ("origin", "space", "space_origin", "text")

    def __init__(self, text: str, origin: int, space: str = "", space_origin: int = 0) -> None:
        self.text, self.origin, self.space, self.space_origin = text, origin, space, space_origin


def _group_end(tokens: list[Out], index: int) -> int:
    """The index after the bracket that closes the one at `index`."""
    depth = 0
    for position in range(index, len(tokens)):
        text = tokens[position].text
        if text in _OPENERS:
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return position + 1
    return len(tokens)


def primary_end(tokens: list[Out], index: int) -> int:
    """The index after the primary starting at `index` (with a `√` before it, the operand of
    that `√`)."""
    if index >= len(tokens):
        return index
    if tokens[index].text == "√":
        return primary_end(tokens, index + 1)
    if tokens[index].text in _OPENERS:
        end = _group_end(tokens, index)
    else:
        end = index + 1
    while end < len(tokens):
        text = tokens[end].text
        if text in ("(", "["):
            end = _group_end(tokens, end)
        elif text == "." and end + 1 < len(tokens):
            end += 2
        else:
            break
    return end


def operand_end(tokens: list[Out], index: int) -> int:
    """The index after a power's exponent starting at `index`: signs, a primary, and any
    `** exponent` after it (`e^-x**2` is e to the -(x**2), as Python reads `e**-x**2`)."""
    while index < len(tokens) and tokens[index].text in ("-", "+"):
        index += 1
    end = primary_end(tokens, index)
    if end < len(tokens) and tokens[end].text == "**":
        return operand_end(tokens, end + 1)
    return end
