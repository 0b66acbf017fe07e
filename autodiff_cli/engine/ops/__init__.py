"""The op families, one module each, every op declared with `defop` (engine/core/optable.py).

Importing this package loads nothing: `autodiff_cli.engine` imports the families it exposes."""
