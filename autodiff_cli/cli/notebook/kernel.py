"""The Jupyter kernel process: `python -m autodiff_cli.cli.notebook.kernel -f CONNECTION_FILE`
(the kernel.json `kernelspec` writes). The kernel itself is `autodiff_kernel`; this entry starts
clean first, as `autodiff` does (`cli/app.py`)."""

from __future__ import annotations

import sys

from autodiff_cli import lazy_imports
from autodiff_cli.cli.jail.clean_start import (
    ensure_clean_start,
    isolation_available,
    limit_blas_threads,
)


def main() -> None:
    """The kernel process: a clean start (the jailed children must not inherit the notebook
    server's environment), one BLAS thread, then ipykernel's application."""
    ensure_clean_start("autodiff_cli.cli.notebook.kernel:main")
    if isolation_available():
        limit_blas_threads()
    lazy_imports.load("autodiff_cli.cli.notebook.autodiff_kernel").launch()
    sys.exit(0)


if __name__ == "__main__":
    main()
