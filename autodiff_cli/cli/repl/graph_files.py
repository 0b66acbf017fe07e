"""`:graph NAME FMT FILE` (or `:graph NAME FILE`, the format from FILE's extension): the graph
written to a file as text (tree, DOT, Mermaid) or as a picture (SVG, PNG). The session's child
makes the text (DOT for a picture); this process draws the picture with Graphviz and writes the
file, as the child may neither run programs nor open files."""

from __future__ import annotations

import sys

from autodiff_cli.cli.draw.command import write_output
from autodiff_cli.cli.draw.names import format_for_output
from autodiff_cli.cli.graph.export import FORMATS, RenderError, render_dot
from autodiff_cli.i18n import gettext as _

PICTURES = ("svg", "png")


def parse_graph_argument(argument: str) -> tuple[str, str, str]:
    """(name, format, file) of `:graph`'s argument; format `tree` and file "" by default."""
    name, _space, rest = argument.strip().partition(" ")
    fmt, _space, path = rest.strip().partition(" ")
    path = path.strip()
    if "." in fmt[1:] and fmt not in (*FORMATS, "html") and not path:  # `:graph y g.svg`
        fmt, path = format_for_output(fmt), fmt
    return name, fmt or "tree", path


def source_format(fmt: str) -> str:
    """The text the session makes for `fmt`: DOT for a picture."""
    return "dot" if fmt in PICTURES else fmt


def write_graph_file(text: str, fmt: str, path: str) -> None:
    """Write the graph's text (or its picture, drawn from DOT `text`) to `path`; ValueError
    saying why not."""
    try:
        content: str | bytes = render_dot(text, fmt) if fmt in PICTURES else text
        write_output(content, path)
    except RenderError as error:
        raise ValueError(str(error)) from None
    except OSError as error:
        raise ValueError(
            _("cannot write {path}: {reason}").format(path=path, reason=error.strerror)
        ) from None
    sys.stdout.write(_("wrote {path}").format(path=path) + "\n")
    sys.stdout.flush()
