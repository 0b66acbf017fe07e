"""The `autodiff` command line: the entry (`app`, `fast_path` for the one-liner, `commands` for
Typer), one package per command (`grad`, `graph`, `repl`, `run`, `notebook`), what the terminal
shows (`output`) and the OS layer (`jail`). Each command's package imports what it needs at the
top of its modules; what waits for first use is listed in `autodiff_cli/lazy_imports.py`.
"""
