"""Syntax tree to closures: name resolution (`scopes`), expressions and operators, statements,
control flow for ordinary and generator bodies (`control_flow`, `flow_runners`), definitions,
and `Program`, what `compile_source` returns."""
