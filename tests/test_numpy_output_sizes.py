"""No function of a script's numpy returns more elements than the element cap (issue 29, hole 7).

`np.zeros((0, 150000000)).sum(axis=0)` once allocated 150 million elements from an empty input:
a reduction keeps the dims it does not reduce. These tests lower the cap, then call every public
function of the script's numpy, every array method and the random draws with empty arrays of
large extent, broadcastable rows and columns and axes, and check that every value returned is
within the cap (a refusal is a MemoryError before numpy allocates).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from script_runner import error_of, run

from autodiff_cli.lang import limits
from autodiff_cli.lang.pylib import numpy_module
from autodiff_cli.lang.sandbox import numpy_types as nt
from autodiff_cli.lang.sandbox.numpy_types import NdArray

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's empty-slice notes
CAP = 1000
BIG = 3000  # one dim over the cap; the arrays below are all empty or within the cap


def _pool() -> list:
    arrays = [
        np.zeros((0, BIG)), np.zeros((BIG, 0)), np.zeros((0, 0, BIG)), np.zeros((BIG, 0, 0)),
        np.zeros((BIG, 1, 0, 0)), np.ones((40, 1)), np.ones((1, 40)), np.ones((40, 1, 1, 1)),
        np.ones((1, 40, 1, 1)), np.ones((2, 2)),
    ]  # fmt: skip
    return [NdArray(a) for a in arrays] + [0, 1, -1, (0, 1)]


def _elements(value, depth: int = 0) -> int:
    """Elements (and Python lists) a result holds."""
    if type(value) is NdArray:
        return value._held.size
    if isinstance(value, (list, tuple)) and depth < 70:
        return len(value) + sum(_elements(item, depth + 1) for item in value)
    return 1


def _callables() -> dict:
    module = numpy_module.make_module()
    found = {}
    for name, value in vars(module).items():
        if callable(value) and not isinstance(value, (type, nt.ScalarType)):
            found[f"np.{name}"] = value
    for sub in ("linalg", "random"):
        for name, value in vars(getattr(module, sub)).items():
            if callable(value) and not name.startswith("_") and name not in ("seed",):
                found[f"np.{sub}.{name}"] = value
    generator = module.random.default_rng(0)
    for name in ("normal", "uniform", "random", "standard_normal", "integers", "choice"):
        found[f"rng.{name}"] = getattr(generator, name)
    return found


METHODS = (
    "sum mean prod std var max min all any argmax argmin cumsum reshape transpose astype copy "
    "flatten ravel squeeze tolist item clip round dot argsort"
).split()
OPERATORS = ("__add__", "__mul__", "__matmul__", "__lt__", "__pow__")


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "max_elements", lambda: CAP)


def _over_cap(call, pool: list, counts: tuple[int, ...]) -> list[str]:
    """`call` with every tuple of `counts` arguments from `pool`: for each count, the first
    call whose result holds more than the cap, shown. (Called under `np.errstate(all="ignore")`,
    entered once by the walks below; one loop here, not a function call per tuple: ~460,000.)"""
    refused = (MemoryError, TypeError, ValueError, IndexError, ArithmeticError, RuntimeError)
    problems = []
    for count in counts:
        for args in itertools.product(pool, repeat=count):
            try:
                result = call(*args)
            except refused:
                continue
            elements = _elements(result)
            if elements > CAP + 64:  # (a tuple of 64 index arrays)
                problems.append(f"({_shown(args)}): {elements} elements")
                break
    return problems


def _shown(args: tuple) -> str:
    return ", ".join(f"array{a._held.shape}" if type(a) is NdArray else repr(a) for a in args)


def test_functions_stay_within_the_cap(small_cap: None) -> None:
    pool = _pool()
    problems = []
    with np.errstate(all="ignore"):
        for name, function in sorted(_callables().items()):
            problems += [name + found for found in _over_cap(function, pool, (1, 2, 3))]
    assert problems == []


def test_methods_and_operators_stay_within_the_cap(small_cap: None) -> None:
    pool = _pool()
    problems = []
    with np.errstate(all="ignore"):
        for name in (*METHODS, *OPERATORS):
            for array in (a for a in pool if type(a) is NdArray):
                shown = f"array{array._held.shape}.{name}"
                problems += [
                    shown + found for found in _over_cap(getattr(array, name), pool, (0, 1, 2))
                ]
    assert problems == []


def test_the_walk_reaches_the_functions_that_grew_outputs() -> None:
    names = set(_callables())
    assert {"np.sum", "np.trace", "np.linalg.det", "np.linalg.norm", "np.linalg.solve"} <= names
    assert {"np.clip", "np.linspace", "np.random.normal", "rng.uniform", "np.nonzero"} <= names


@pytest.mark.parametrize(
    "source",
    [
        "np.zeros((0, 150000000)).sum(axis=0)",
        "np.sum(np.zeros((0, 150000000)), 0)",
        "np.zeros((0, 150000000)).any(0)",
        "np.zeros((0, 150000000)).mean(axis=0, keepdims=True)",
        "np.count_nonzero(np.zeros((0, 150000000)), axis=0)",
        "np.trace(np.zeros((0, 0, 150000000)))",
        "np.linalg.det(np.zeros((150000000, 0, 0)))",
        "np.linalg.matrix_rank(np.zeros((150000000, 0, 0)))",
        "np.linalg.norm(np.zeros((0, 150000000)), axis=0)",
        "np.zeros((150000000, 0)).tolist()",
        "np.clip(np.zeros((20000, 1)), np.zeros((1, 20000)), 1)",
        "np.linspace(np.zeros((20000, 1)), np.zeros(20000), 1)",
        "np.random.normal(np.zeros((20000, 1)), np.ones(20000))",
        "np.random.default_rng(0).uniform(np.zeros((20000, 1)), np.ones(20000))",
        "np.linalg.solve(np.ones((20000, 1, 1, 1)), np.ones((1, 20000, 1, 1)))",
    ],
)
def test_size_bombs_are_refused(source: str) -> None:
    error = error_of(f"import numpy as np\n{source}\n")
    assert error.type_name == "MemoryError"
    assert "more than the limit" in error.message


def test_ordinary_results_are_unchanged() -> None:
    out = run(
        "import numpy as np\n"
        "a = np.arange(6.0).reshape(2, 3)\n"
        "print(a.sum(axis=0), np.trace(a[:, :2]), np.count_nonzero(a, axis=1))\n"
        "print(np.zeros((0, 3)).sum(axis=0), np.linalg.det(np.eye(2)), np.clip(a, 1, 4)[0])\n"
        "print(np.zeros((4, 0)).tolist(), np.linalg.norm(a, axis=1).shape, np.nonzero(a)[1])\n"
    )
    expected_sum = np.arange(6.0).reshape(2, 3).sum(axis=0)
    assert out.splitlines()[0] == f"{expected_sum} 4.0 [2 3]"
    assert out.splitlines()[1] == "[0. 0. 0.] 1.0 [1. 1. 2.]"
    assert out.splitlines()[2] == "[[], [], [], []] (2,) [1 2 0 1 2]"
