"""The REPL's own words for a newcomer, in the user's language: the banner and `:help`."""

from __future__ import annotations

import re

from autodiff_cli import __version__
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.errors import display_width

_N = str  # marks a text for the catalogue; translated when shown

INTRO = _N(
    "Statements run as in Python, with `torch` imported; an expression's value is echoed and\n"
    "kept in `_`. A block (def, for, if, ...) ends with a blank line. Ctrl-C cancels the line\n"
    "or stops a running statement; Ctrl-D exits. Tab completes names, attributes and methods;\n"
    "while a call is typed its signature shows at the bottom; Right-arrow takes the grey\n"
    "suggestion from the history. NAME? shows the help of NAME (x.backward?)."
)

# (the command as typed, what it does)
COMMANDS = (
    (":help", _N("this help")),
    (":doc NAME", _N("help on NAME, such as :doc x.backward (also NAME?)")),
    (":vars", _N("the variables: name, value, shape, dtype, requires_grad, is_leaf, grad_fn, grad")),
    (":graph NAME [FMT]", _N("the grad_fn graph of NAME (FMT: tree, dot or mermaid)")),
    (":graph NAME FMT FILE", _N("the graph written to FILE (FMT: tree, dot, mermaid, svg, png)")),
    (":graph NAME html FILE", _N("a page to open in a browser: the graph, backward step by step")),
    (":grads", _N("the gradients of the leaf tensors")),
    (":explain NAME", _N("call NAME.backward() step by step (gradients accumulate, the graph is freed)")),
    (":formula NAME [WRT...]", _N("the derivatives of NAME as formulas read from its graph, checked against autograd (elementwise graphs of one-element tensors)")),
    (":reset", _N("start over with a fresh namespace")),
    (":load FILE", _N("run FILE in this session")),
    (":save FILE", _N("write this session's successful inputs as a script for `autodiff run`")),
    (":hints [on|off]", _N("the teaching hints after an error (on unless --no-hints)")),
    (":quit", _N("leave (also Ctrl-D)")),
)  # fmt: skip

BANNER = _N(
    "autodiff {version} REPL: PyTorch's autograd on numpy; `torch` is imported.\n"
    "Ctrl-D exits, Ctrl-C cancels, Tab completes, :help lists the commands."
)


LINE_WIDTH = 96  # terminal columns the help's lines fit in


def help_text() -> str:
    """`:help`: the introduction, then one line per command, its description beside it
    (wrapped under itself by display width: a Chinese character takes two columns)."""
    width = max(len(command) for command, _text in COMMANDS) + 4
    lines = [_(INTRO), ""]
    for command, text in COMMANDS:
        wrapped = _wrap(_(text), LINE_WIDTH - width)
        lines.append(f"  {command.ljust(width - 2)}{wrapped[0]}")
        lines += [" " * width + rest for rest in wrapped[1:]]
    return "\n".join(lines)


def _wrap(text: str, columns: int) -> list[str]:
    """`text` cut into lines of at most `columns` display columns, at spaces where there are
    any (Chinese text has none: it may break between any two characters)."""
    lines, line, used = [], "", 0
    for word in re.findall(r"\S+\s*|\s+", text):
        size = sum(display_width(char) for char in word.rstrip())
        if used and used + size > columns:
            if " " not in word and not word.isascii():  # a run of wide characters: split it
                for char in word:
                    if used + display_width(char) > columns:
                        lines.append(line.rstrip())
                        line, used = "", 0
                    line, used = line + char, used + display_width(char)
                continue
            lines.append(line.rstrip())
            line, used = "", 0
        line, used = line + word, used + sum(display_width(char) for char in word)
    return [*lines, line.rstrip()]


def banner() -> str:
    return _(BANNER).format(version=__version__)
