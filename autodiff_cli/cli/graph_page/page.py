"""The HTML page: the checked data, its layout and the template (`page.html`, `page.css`,
`page.js` beside this module), in one self-contained file that loads nothing from anywhere.

The data goes in as JSON inside `<script type="application/json">` with `<`, `>` and `&` written
as `\\u003c`... (so no script text can close the element or open a comment), and the page's
script puts every script-provided string into the document with `textContent`. A
Content-Security-Policy allows only the page's own script and style (by hash) and no network.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from autodiff_cli.cli.graph_page.boxes import visible_graph
from autodiff_cli.cli.graph_page.checked import BadPageData, checked_page_data
from autodiff_cli.cli.graph_page.dot_layout import dot_layout
from autodiff_cli.cli.graph_page.layered import layered_layout

HERE = Path(__file__).resolve().parent
PLACEHOLDER = re.compile(r"\{\{(TITLE|CSP|STYLE|SCRIPT|DATA)\}\}")


def embedded_json(value: Any) -> str:
    """JSON that is inert inside a `<script>` element: no `<`, `>` or `&` in it."""
    text = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


def page_model(data: dict, *, use_dot: bool = True) -> dict:
    """What the page's script reads: the graph data, each box's lines and size, the layout."""
    data = checked_page_data(data)
    drawn = visible_graph(data)
    sizes = {name: (box.width, box.height) for name, box in drawn.boxes.items()}
    found = dot_layout(drawn.visible, sizes, drawn.edges) if use_dot else "no Graphviz asked"
    if not isinstance(found, str) and all(box in found.nodes for box in drawn.visible):
        engine, note, positions = "dot", "Graphviz dot", found.nodes
        routes = {
            key: {"from": source, "points": found.edges[key]}
            for source, _, key in drawn.edges
            if key in found.edges
        }
    else:
        reason = found if isinstance(found, str) else "Graphviz's dot left boxes out"
        engine, note, routes = "layered", f"layered ({reason})", {}
        positions = layered_layout(drawn.visible, sizes, drawn.edges)
    return {
        "graph": data,
        "boxes": {
            name: {"lines": box.lines, "kind": box.kind, "w": box.width, "h": box.height}
            for name, box in drawn.boxes.items()
        },
        "layout": {
            "engine": engine,
            "note": note,
            "positions": {box: list(positions[box]) for box in drawn.visible},
            "routes": routes,
        },
    }


def render_page(data: dict, *, use_dot: bool = True) -> str:
    """The page of `data` (as `data.page_data` made it; checked here: BadPageData if not)."""
    model = page_model(data, use_dot=use_dot)
    style = (HERE / "page.css").read_text(encoding="utf-8")
    script = (HERE / "page.js").read_text(encoding="utf-8")
    policy = (
        f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    values = {
        "TITLE": html.escape(f"autodiff · the graph of {model['graph']['result']['name']}"),
        "CSP": html.escape(policy),
        "STYLE": style,
        "SCRIPT": script,
        "DATA": embedded_json(model),
    }
    template = (HERE / "page.html").read_text(encoding="utf-8")
    return PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def render_page_json(text: str | bytes, *, use_dot: bool = True) -> str:
    """The page of the JSON a child wrote (`data.page_data`); BadPageData if it is not that."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadPageData("malformed graph data (not JSON)") from None
    return render_page(data, use_dot=use_dot)
