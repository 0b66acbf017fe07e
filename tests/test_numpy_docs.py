"""The command loads numpy without its docstring modules (`cli/numpy_docs.py`): they must still do
nothing but attach text, on whichever numpy is installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from autodiff_cli.cli.numpy_docs import DOCSTRING_MODULES

ROOT = Path(__file__).resolve().parent.parent

# Every module of numpy loaded by `import numpy`, each public and private name it holds with the
# kind of value, and numpy's namespace's behaviour on a sample: what differs between numpy loaded
# as usual and numpy loaded without its docstring modules, apart from docstrings.
FINGERPRINT = r"""
import json, sys
if sys.argv[1] == "lean":
    from autodiff_cli.cli.numpy_docs import import_numpy_without_docstrings
    import_numpy_without_docstrings()
import numpy as np
skip = set(json.loads(sys.argv[2]))
modules = {}
for name, module in sorted(sys.modules.items()):
    if (name == "numpy" or name.startswith("numpy.")) and name not in skip and module is not None:
        modules[name] = sorted(
            (key, type(value).__name__) for key, value in vars(module).items()
            if key not in skip and key.rsplit(".", 1)[-1] not in {n.rsplit(".", 1)[-1] for n in skip}
            and key not in ("__doc__",)
        )
sample = np.arange(6.0).reshape(2, 3)
behaviour = [repr(sample @ sample.T), str(np.float32(1) / 3), repr(np.sin(sample).sum(0))]
print(json.dumps({"modules": modules, "behaviour": behaviour}))
"""


def _fingerprint(kind: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", FINGERPRINT, kind, json.dumps(list(DOCSTRING_MODULES))],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(result.stdout)


def test_numpy_without_its_docstring_modules_is_the_same_numpy():
    usual, lean = _fingerprint("usual"), _fingerprint("lean")
    assert lean["behaviour"] == usual["behaviour"]
    assert lean["modules"].keys() == usual["modules"].keys()
    for name, attributes in usual["modules"].items():
        assert lean["modules"][name] == attributes, name


def test_the_docstring_modules_only_call_doc_functions():
    """Every call at the top level of the stood-in modules (loops and conditions included) is
    to a function that attaches a docstring."""
    import ast
    import importlib.util

    for name in DOCSTRING_MODULES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        for statement in tree.body:
            if isinstance(statement, (ast.FunctionDef, ast.Import, ast.ImportFrom)):
                continue
            for node in ast.walk(statement):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    called = node.func.id
                    assert "doc" in called or called in defined | _HARMLESS, (name, called)


# builtins and helpers the modules use to build docstring text
_HARMLESS = {"len", "str", "repr", "format", "getattr", "hasattr", "isinstance", "dict", "list",
             "tuple", "set", "sorted", "zip", "enumerate", "range", "type", "print", "dtype"}  # fmt: skip
