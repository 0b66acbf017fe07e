"""`autodiff graph`: draw the grad_fn graph of an expression or of a script's tensor (`command`,
`names` for its `--var` words and the format an output file's extension names).

A command above the packages it draws with: `grad` (the expression and its `--at` leaves),
`graph` (the graph as data and its text and picture formats), `formulas` (`--formula`) and
`graph_page` (`--format html`)."""
