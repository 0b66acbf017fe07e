"""The derivative as a formula, read from the recorded grad_fn graph (`autodiff grad --formula`,
the REPL's `:formula`, `graph --file --formula`, `--explain --formula`).

`terms` turns a graph into plain data (no SymPy: it runs where the graph lives, even in the REPL's
locked-down child); `symbolic` makes SymPy expressions of that data through the op table's
`symbolic` entries and an explicit table of allowed functions (never by parsing text);
`simplifying` bounds SymPy's simplification in CPU time; `printing` gives the plain (pasteable),
Unicode and LaTeX forms; `checking` compares each formula's value with the engine's. SymPy is
imported only by `symbolic` and the modules after it, when a formula is asked for.
"""
