"""A script's `numpy`: values and printing equal real numpy's, memory shared with tensors as in
PyTorch, and only safe wrappers reach the script (the attacks are in tests/hostile/cap_numpy_*)."""

from __future__ import annotations

import subprocess
import sys

import numpy
import pytest
from script_runner import error_of, run


def printed(expression: str, setup: str = "") -> str:
    """What a script prints for `print(repr(expression))` after `setup`."""
    return run(f"import numpy as np\nimport torch\n{setup}\nprint(repr(({expression})))\n").strip()


def real(expression: str, setup: str = "") -> str:
    """repr of the same expression with the real numpy."""
    scope: dict = {"np": numpy}
    exec(setup, scope)  # noqa: S102 - our own test text
    return repr(eval(f"({expression})", scope))  # noqa: S307


SETUP = "a = np.array([[1.0, 2.5, -3.0], [4.0, 0.5, 6.0]])\nb = np.arange(6).reshape(2, 3)\n"
SAME_AS_NUMPY = [
    "a",
    "b",
    "np.zeros((2, 3), dtype=np.float32)",
    "np.ones(3, dtype='int32')",
    "np.empty((2,))",
    "np.full((2, 2), 7.5)",
    "np.arange(0.0, 1.0, 0.1)",
    "np.linspace(-1, 1, 7)",
    "np.eye(3, k=1)",
    "np.zeros_like(b)",
    "np.ones_like(a, dtype=np.float32)",
    "a.shape, a.ndim, a.size",
    "a.dtype, b.dtype, str(a.dtype)",
    "a.T",
    "a.reshape(3, 2)",
    "a.astype(np.int64)",
    "a.sum(), a.sum(axis=0), a.sum(axis=1, keepdims=True)",
    "a.mean(), a.max(axis=1), a.min(axis=0)",
    "a.std(), a.var(axis=0), a.prod()",
    "a.argmax(), a.argmin(axis=1)",
    "np.exp(a), np.log(np.abs(a)), np.sqrt(np.abs(a))",
    "np.sin(a) + np.cos(a) * np.tanh(a)",
    "np.maximum(a, 1), np.minimum(a, b)",
    "np.where(a > 1, a, -a), np.clip(a, 0, 2)",
    "a @ a.T, np.dot(a, a.T), np.matmul(a.T, a)",
    "a * 2 - b / 3, -a, a ** 2, b // 2, b % 4",
    "a > 1, a == 2.5, b != 3",
    "a[0], a[:, 1], a[1, 2], a[a > 1], a[[1, 0], [0, 2]], a[..., None].shape",
    "np.concatenate([a, b]), np.stack([a, b], axis=1), np.vstack([a, a]), np.hstack([a, b])",
    "np.allclose(a, a + 1e-9), np.isclose(a, 2.5), np.array_equal(a, a)",
    "np.float32(1.5), np.float64(2.0) * 3, np.int64(7) // 2",
    "np.float32(0.1) + np.float32(0.2)",
    "np.array([1, 2], dtype=np.float32) * 2.5",
    "a.sum() > 3, float(a[0, 1]), int(b[1, 2])",
    "a.tolist(), a[0, 0].item()",
    "np.pi, np.e, np.inf",
    "np.linalg.norm(a), np.linalg.norm(a, axis=1), np.linalg.norm(b, ord=1)",
    "np.linalg.inv(a[:, :2].T @ a[:, :2]), np.linalg.det(a[:, 1:] @ a[:, 1:].T)",
    "np.linalg.solve(a[:, :2], np.array([1.0, 2.0]))",
    "np.tile(b, (2, 1)), np.repeat(a, 2, axis=0), np.diag(a), np.diag(np.arange(3.0), 1)",
    "np.diff(a, axis=1), np.nonzero(b > 2), np.count_nonzero(a > 1), np.trace(b), np.flip(a)",
]


@pytest.mark.parametrize("expression", SAME_AS_NUMPY)
def test_values_print_as_numpy_prints_them(expression: str) -> None:
    assert printed(expression, SETUP) == real(expression, SETUP)


def test_str_of_arrays_and_scalars_as_numpy() -> None:
    source = "import numpy as np\nprint(np.linspace(0, 1, 4), np.float32(1.5), np.arange(3) * 2)\n"
    expected = f"{numpy.linspace(0, 1, 4)} {numpy.float32(1.5)} {numpy.arange(3) * 2}\n"
    assert run(source) == expected


def test_setitem_and_inplace_operators_change_the_array() -> None:
    out = run(
        "import numpy as np\na = np.zeros(4)\na[1] = 5\na[2:] += 1\na *= 2\nprint(a.tolist())\n"
    )
    assert out == "[0.0, 10.0, 2.0, 2.0]\n"


def test_random_streams_equal_numpy() -> None:
    out = run(
        "import numpy as np\nnp.random.seed(3)\nprint(np.random.rand(2).tolist(), "
        "np.random.randn(2).tolist(), np.random.randint(0, 100, size=3).tolist())\n"
        "g = np.random.default_rng(7)\nprint(g.random(2).tolist(), g.normal(size=2).tolist(), "
        "g.integers(0, 10, size=3).tolist())\n"
    )
    state = numpy.random.RandomState(3)
    first = [state.rand(2).tolist(), state.randn(2).tolist(), state.randint(0, 100, 3).tolist()]
    rng = numpy.random.default_rng(7)
    second = [rng.random(2).tolist(), rng.normal(size=2).tolist(), rng.integers(0, 10, 3).tolist()]
    assert out == " ".join(map(str, first)) + "\n" + " ".join(map(str, second)) + "\n"


def test_each_script_has_its_own_random_state() -> None:
    source = "import numpy as np\nnp.random.seed(1)\nprint(np.random.rand())\n"
    assert run(source) == run(source)


def test_from_numpy_and_numpy_share_memory_both_ways() -> None:
    out = run(
        "import numpy as np\nimport torch\n"
        "a = np.zeros(3)\nt = torch.from_numpy(a)\nt[0] = 1.0\na[1] = 2.0\n"
        "n = t.numpy()\nn[2] = 3.0\nprint(a.tolist(), t.tolist(), t.dtype)\n"
        "c = torch.tensor(a)\nc[0] = -1.0\nprint(a[0], torch.as_tensor(a).dtype)\n"
    )
    assert out == "[1.0, 2.0, 3.0] [1.0, 2.0, 3.0] torch.float64\n1.0 torch.float64\n"


def test_numpy_of_a_tensor_that_requires_grad() -> None:
    error = error_of("import torch\ntorch.ones(2, requires_grad=True).numpy()")
    assert error.type_name == "RuntimeError"
    assert "Can't call numpy() on Tensor that requires grad" in error.message
    out = run(
        "import torch\nw = torch.ones(2, requires_grad=True)\n"
        "with torch.no_grad():\n    print(w.numpy())\nprint(w.detach().numpy(), w.numpy(force=True))\n"
    )
    assert out == "[1. 1.]\n[1. 1.] [1. 1.]\n"


def test_types_are_numpys_names_but_not_the_real_classes() -> None:
    out = run(
        "import numpy as np\na = np.ones(2)\nprint(type(a), type(a[0]), np.float32, np.ndarray)\n"
        "print(isinstance(a, np.ndarray), isinstance(a[0], np.float64), a.dtype == np.float64)\n"
    )
    assert out == (
        "<class 'numpy.ndarray'> <class 'numpy.float64'> <class 'numpy.float32'> "
        "<class 'numpy.ndarray'>\nTrue True True\n"
    )


@pytest.mark.parametrize(
    ("source", "type_name", "message"),
    [
        ("np.array([print])", "TypeError", "cannot convert 'function' to a numpy array"),
        ("np.zeros(2).astype(object)", "TypeError", "as a data type"),
        ("np.zeros(2, dtype='O')", "TypeError", "data type 'O' not understood"),
        ("np.array(['a'])", "TypeError", "cannot convert 'str'"),
        ("np.zeros(2).tofile", "AttributeError", "has no attribute 'tofile'"),
        ("np.zeros(2)._held", "AttributeError", "names starting with '_' are private"),
        (
            "np.save",
            "AttributeError",
            "attribute 'save' is not available in scripts (scripts cannot",
        ),
        ("np.zeros((10**6, 10**6))", "MemoryError", "refusing to allocate"),
        ("type(np.zeros(1))(1)", "TypeError", "cannot create 'numpy.ndarray' instances"),
        ("np.zeros(2, dtype=np.int64).__iadd__", "AttributeError", "private"),
        ("np.zeros((2, 3)) + np.zeros(4)", "ValueError", "could not be broadcast"),
        ("np.zeros(3).sum(axis=2)", "ValueError", "axis 2 is out of bounds"),
    ],
)
def test_refusals_and_numpy_errors(source: str, type_name: str, message: str) -> None:
    error = error_of(f"import numpy as np\n{source}")
    assert error.type_name == type_name
    assert message in error.message


def test_numpy_errors_carry_only_their_message() -> None:
    out = run(
        "import numpy as np\na = np.zeros(2, dtype=np.int64)\ntry:\n    a += 1.5\n"
        "except TypeError as error:\n    print(type(error).__name__, [type(x).__name__ for x in error.args])\n"
    )
    assert out == "TypeError ['str']\n"


def test_element_cap_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    from autodiff_cli.lang import limits

    monkeypatch.setattr(limits, "max_elements", lambda: 100)
    assert run("import numpy as np\nprint(np.zeros(100).size)\n") == "100\n"
    for source in ("np.zeros(101)", "np.ones(11) .reshape(11, 1) * np.ones(10)", "np.arange(101)"):
        assert error_of(f"import numpy as np\n{source}").type_name == "MemoryError"


def test_runs_in_the_locked_down_child(tmp_path) -> None:  # noqa: ANN001
    script = tmp_path / "n.py"
    script.write_text(
        "import numpy as np\nimport torch\nnp.random.seed(0)\na = np.random.rand(2)\n"
        "t = torch.from_numpy(a)\nprint(t.numpy(), np.random.default_rng(1).integers(0, 9, 2))\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    state = numpy.random.RandomState(0)
    expected = f"{state.rand(2)} {numpy.random.default_rng(1).integers(0, 9, 2)}\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_print_options_are_the_scripts_own() -> None:
    source = (
        "import numpy as np\na = np.array([1.123456789, 2e-9])\nnp.set_printoptions(precision=3, "
        "suppress=True)\nprint(a)\n"
    )
    with numpy.printoptions(precision=3, suppress=True):
        expected = f"{numpy.array([1.123456789, 2e-9])}\n"
    assert run(source) == expected
    assert numpy.get_printoptions()["precision"] == 8  # numpy's own options untouched
    assert run("import numpy as np\nprint(np.array([1.123456789]))\n") == "[1.12345679]\n"
    assert error_of("import numpy as np\nnp.set_printoptions(formatter=print)").type_name == (
        "TypeError"
    )


def test_iteration_is_lazy_and_membership_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    out = run(
        "import numpy as np\nfor x in np.zeros(10**7):\n    print(repr(x))\n    break\n"
        "print(2.0 in np.arange(3.0), [int(v) for v in np.arange(3)])\n"
    )
    assert out == "np.float64(0.0)\nTrue [0, 1, 2]\n"
    from autodiff_cli.lang import limits

    monkeypatch.setattr(limits, "max_elements", lambda: 100)
    error = error_of("import numpy as np\nnp.ones(11).reshape(11, 1) in np.ones((1, 10))")
    assert error.type_name == "MemoryError"


def test_arrays_torch_refuses() -> None:
    error = error_of("import numpy as np\nimport torch\ntorch.from_numpy(np.arange(3.0)[::-1])")
    assert error.type_name == "ValueError" and "negative" in error.message
    error = error_of("import numpy as np\nimport torch\ntorch.tensor(np.zeros(2, dtype='uint16'))")
    assert error.type_name == "TypeError"  # torch.uint16 is not one of the engine's dtypes
    assert "numpy.uint16" in error.message


def test_random_state_objects() -> None:
    out = run(
        "import numpy as np\nrs = np.random.RandomState(5)\nprint(rs.rand(2).tolist(), str(rs))\n"
        "print(repr(rs).startswith('RandomState(MT19937) at 0x'))\n"
    )
    assert out == f"{numpy.random.RandomState(5).rand(2).tolist()} RandomState(MT19937)\nTrue\n"
    assert error_of("import numpy as np\nnp.random.RandomState(1)._state").type_name == (
        "AttributeError"
    )
