"""grad_fn graphs: built as plain data (`build`, `node_values`), drawn as a tree (`tree`) or
exported as DOT, Mermaid, SVG, PNG (`export`), and the `autodiff graph` command (`command`,
`names` for its `--var` words)."""
