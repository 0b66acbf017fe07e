"""The suite runs as CI runs it: the `pytest` console script, where `tests/` is not a package.

`python -m pytest` puts the working directory on `sys.path`, so `from tests.helper import ...`
works there and fails in CI's collection (it did once: four modules, exit status 2).
"""

from __future__ import annotations

import ast
import unicodedata
from pathlib import Path

from source_trees import nodes_of, parse

TESTS = Path(__file__).resolve().parent


def test_helpers_are_imported_by_module_name() -> None:
    wrong = []
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "tests" not in unicodedata.normalize("NFKC", text):
            continue  # (an import names `tests` only by spelling it: Python reads names NFKC)
        for node in nodes_of(parse(path, text)):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            wrong += [
                f"{path.relative_to(TESTS)}:{node.lineno}"
                for name in names
                if name == "tests" or name.startswith("tests.")
            ]
    assert not wrong, f"import test helpers as top-level modules, not `tests.`: {wrong}"
