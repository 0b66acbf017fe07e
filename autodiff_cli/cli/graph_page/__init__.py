"""The graph in the browser: one self-contained HTML page that draws a tensor's grad_fn graph and
steps through its backward pass in the engine's own order.

Two halves, on either side of the jail: `data.page_data` runs where the script ran (the
locked-down child) and turns the tensor into plain JSON data; `page.render_page` runs out here,
checks that data (`checked`), lays it out (Graphviz's `dot` when installed, `layered` otherwise)
and fills the template (`page.html`, `page.css`, `page.js`). Nothing here is imported unless a
page is asked for.
"""
