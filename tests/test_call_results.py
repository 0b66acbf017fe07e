"""Call results are checked by exact type before a script holds them (`lang/sandbox/call_results.py`):
an engine function that returned a raw numpy object by mistake must not hand it to a script."""

from __future__ import annotations

import io
import math
import types

import numpy as np
import pytest

from autodiff_cli import lang
from autodiff_cli.lang import ScriptError
from autodiff_cli.lang.sandbox import call_results


def engine_function(value: object) -> types.FunctionType:
    """A function posing as the engine's (its module is under autodiff_cli.engine) returning
    `value`: the engine bug the checks guard against."""

    def leak() -> object:
        return value

    leak.__module__ = "autodiff_cli.engine.fake"
    return leak


def run_with(value: object, source: str) -> str:
    namespace = lang.new_namespace()
    namespace["leak"] = engine_function(value)
    out = io.StringIO()
    namespace.stdout = out
    lang.compile_source(source, "s.py").run(namespace)
    return out.getvalue()


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (np.float64(2.5), "float 2.5"),
        (np.float32(0.5), "float 0.5"),
        (np.int64(3), "int 3"),
        (np.bool_(True), "bool True"),
    ],
)
def test_numpy_scalars_become_python_numbers(raw: object, shown: str) -> None:
    assert run_with(raw, "x = leak()\nprint(type(x).__name__, x)\n") == shown + "\n"


def test_numpy_scalars_inside_lists_and_tuples_become_numbers() -> None:
    out = run_with(
        (np.float64(1.5), [np.int64(2)]), "x = leak()\nprint(x, type(x[1][0]).__name__)\n"
    )
    assert out == "(1.5, [2]) int\n"


@pytest.mark.parametrize(
    "raw",
    [
        np.zeros(2),
        [np.zeros(2)],
        {"a": np.zeros(2)},
        math,
        np.add,
        np.dtype("float32"),
        np.zeros(2).fill,
        (1).__reduce_ex__,
        types.FunctionType.__call__,
    ],
)
def test_raw_objects_are_refused(raw: object) -> None:
    with pytest.raises(ScriptError) as caught:
        run_with(raw, "x = leak()\n")
    assert "TypeError" in str(caught.value)
    assert "a call returned" in str(caught.value)


def test_classes_become_what_type_gives() -> None:
    assert run_with(np.ndarray, "print(leak())\n") == "<class 'numpy.ndarray'>\n"


def test_common_results_pass_unchanged() -> None:
    for value in (1, 2.5, True, None, "s", (1, 2), [1.0], {"k": 1}):
        assert call_results.check(value, engine_function(value)) is value


def test_script_functions_results_are_not_walked() -> None:
    out = run_with(None, "def f():\n    return [iter([])] * 3\nx = f()\nprint(len(x))\n")
    assert out == "3\n"


def test_cycles_and_shared_containers_are_walked_once() -> None:
    source = "a = []\nfor i in range(64):\n    a = [a, a]\nb = list(a)\nc = [1]\nc.append(c)\nprint(len(list(c)))\n"
    assert run_with(None, source) == "2\n"
