"""What a notebook shows for `:graph NAME`: the one place the graph's display is decided.

The child makes the views (`cell_run.graph_views`: DOT, the REPL's tree, the interactive page's
data); this module turns them into the display's MIME bundle: the interactive page (`graph_page`,
laid out here from the child's data, which it checks) as `text/html` in a sandboxed frame (its
scripts run there, apart from the notebook's page), the SVG Graphviz draws from the DOT (when
`dot` is installed), and the tree as the text/plain fallback. `:graph NAME svg` leaves the page
out.
"""

from __future__ import annotations

import html
from typing import Any

from autodiff_cli.cli.graph.export import RenderError, render_dot
from autodiff_cli.cli.graph_page.page import render_page_json

PICTURE_FORMATS = ("", "svg", "html")  # `:graph NAME [FMT]` shown as a picture; others as text


def graph_bundle(views: dict[str, Any], fmt: str = "") -> tuple[dict[str, str], str | None]:
    """(the display_data bundle, a note for stderr or None) for `:graph NAME [svg|html]`."""
    bundle = {"text/plain": views.get("tree", "")}
    note = None
    if fmt != "svg" and isinstance(views.get("page"), str):
        page, problem = _page(views["page"])
        if page is not None:
            bundle["text/html"] = page
        elif fmt == "html":
            note = f":graph: {problem}"
    try:
        bundle["image/svg+xml"] = render_dot(views.get("dot", ""), "svg").decode("utf-8")
    except RenderError as error:
        if fmt in ("svg", "html"):
            note = f":graph: {error}"
    return bundle, note


FRAME_HEIGHT = 620  # pixels: the page fits its graph to whatever the frame gives it


def _page(data_json: str) -> tuple[str | None, str | None]:
    """(the page in a sandboxed frame, None) or (None, why it cannot be shown)."""
    try:
        page = render_page_json(data_json)
    except RenderError as error:
        return None, str(error)
    frame = (
        f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(page, quote=True)}" '
        f'style="width: 100%; height: {FRAME_HEIGHT}px; border: 0"></iframe>'
    )
    return frame, None
