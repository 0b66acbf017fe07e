"""grad_fn graphs: built as plain data (`build`, `node_values`), drawn as a tree (`tree`) or
exported as DOT, Mermaid, SVG, PNG (`export`). The commands that draw them sit above: `grad`,
`draw` (the `autodiff graph` command), `graph_page`, the REPL's `:graph`."""
