"""The `autodiff` command line: Typer commands (run, grad, repl) and their terminal output.

Modules here import the engine, the language and Rich lazily, inside the command that needs them,
so that `autodiff --version` and the one-liner start fast.
"""
