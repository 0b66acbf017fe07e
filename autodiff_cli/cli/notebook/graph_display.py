"""What a notebook shows for `:graph NAME`: the one place the graph's display is decided.

The child makes the views (`cell_run.graph_views`: DOT and the REPL's tree); this module turns
them into the display's MIME bundle: the SVG Graphviz draws from the DOT (when `dot` is
installed), the tree as its text/plain fallback.

HOOK for the interactive HTML page (issue 34, "The graph in the browser"): once it lands, have
`graph_views` also return the page as a `html` view and return it here as `text/html` (first,
for `:graph NAME` and `:graph NAME html`); nothing else changes.
"""

from __future__ import annotations

from typing import Any

PICTURE_FORMATS = ("", "svg", "html")  # `:graph NAME [FMT]` shown as a picture; others as text


def graph_bundle(views: dict[str, Any], fmt: str = "") -> tuple[dict[str, str], str | None]:
    """(the display_data bundle, a note for stderr or None) for `:graph NAME [svg|html]`."""
    from autodiff_cli.cli.graph_export import RenderError, render_dot

    bundle = {"text/plain": views.get("tree", "")}
    note = None
    if fmt == "html":
        note = ":graph: the interactive HTML page is not available yet; showing the SVG"
    try:
        bundle["image/svg+xml"] = render_dot(views.get("dot", ""), "svg").decode("utf-8")
    except RenderError as error:
        if fmt in ("svg", "html"):
            note = f":graph: {error}"
    return bundle, note
