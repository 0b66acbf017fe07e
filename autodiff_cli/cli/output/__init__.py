"""What the user sees on the terminal: styling decisions and stderr (`terminal`), a child's
collected output (`output_text`), script failures and warnings (`diagnostics`) and the teaching
hints after them (`hints`); Rich (`styled`) and `--json` (`json_text`) load through `optional`
only for output that is styled or asked for as JSON."""

from __future__ import annotations

from types import ModuleType

from autodiff_cli import lazy_imports

OPTIONAL = {
    "styled": "autodiff_cli.cli.output.styled",  # Rich, for a terminal that takes colour
    "json_text": "autodiff_cli.cli.output.json_text",  # --json
}


def optional(name: str) -> ModuleType:
    """The output module `name` (`OPTIONAL`), imported on first use (lazy_imports says why)."""
    return lazy_imports.load(OPTIONAL[name])
