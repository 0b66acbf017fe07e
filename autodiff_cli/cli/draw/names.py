"""`graph --file`'s words about `--var`: which tensors the script defines, and the closest name
to a mistyped one (Python's "Did you mean" rule); and the format an output file's extension
names (`-o g.svg` draws SVG without `-f svg`)."""

from __future__ import annotations

from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.runtime.suggestions import closest_name

EXTENSION_FORMATS = {
    ".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid",
    ".mermaid": "mermaid", ".html": "html", ".htm": "html",
}  # fmt: skip


def format_for_output(output: str | None) -> str:
    """The graph format an output file's extension names (`tree` for any other)."""
    if output is None:
        return "tree"
    dot = output.rfind(".")
    return EXTENSION_FORMATS.get(output[dot:].lower(), "tree") if dot > 0 else "tree"


def tensor_names(namespace: dict[str, Any]) -> list[str]:
    return sorted(
        name
        for name, value in namespace.items()
        if isinstance(name, str) and not name.startswith("_") and isinstance(value, torch.Tensor)
    )


def missing_var_message(script: str, namespace: dict[str, Any]) -> str:
    names = tensor_names(namespace)
    if not names:
        return _("--file needs --var NAME; {script} defines no tensor").format(script=script)
    return _("--file needs --var NAME, one of the tensors {script} defines: {names}").format(
        script=script, names=", ".join(names)
    )


def unknown_var_message(script: str, var: str, namespace: dict[str, Any]) -> str:
    text = _("{script} defines no variable {var!r}").format(script=script, var=var)
    suggestion = closest_name(var, tensor_names(namespace))
    if suggestion is not None:
        text += _(". Did you mean: {name!r}?").format(name=suggestion)
    return text
