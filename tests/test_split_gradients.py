"""Every way of splitting a tensor into pieces, with the pieces then used under broadcasting:
each piece's gradient reaches its own elements (`w, b = params` once sent every gradient to
element 0: a broadcasting op's node replaced the edges' output numbers when it recorded its
inputs' shapes). Checked against central finite differences in float64, through the engine and
through `autodiff run`; the pieces' grad_fn names are PyTorch's."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import autodiff_cli.engine as E

REPO = Path(__file__).resolve().parent.parent
T = np.array([1.0, -2.0, 0.5])


def _t() -> E.Tensor:
    return E.tensor(T, dtype=E.float64)


def _unpack(p):
    w, b, c = p
    return (w * _t() + b * _t() ** 2 - c / (_t() + 3)).sum()


def _iterate(p):
    return sum(((x + k) * _t()).sum() ** 2 for k, x in enumerate(p))


def _starred(p):
    a, *rest = p
    return (a * _t() + rest[0] * _t() * rest[1]).sum()


def _zip(p):
    total = 0
    for x, s in zip(p, [1.0, -1.0, 0.5]):
        total = total + (E.sin(x * s * _t())).sum()
    return total


def _list(p):
    items = list(p)
    return (items[2] * _t() + items[0]).prod() + (items[1] - _t()).pow(2).sum()


def _unbind(p):
    w, b, c = p.unbind()
    return (E.sigmoid(w * _t()) * b + c).sum()


def _rows(p):
    m = p.view(3, 1)
    r0, r1, r2 = m.unbind(0)
    return (r0 * _t() + r1 * r2 * _t()).sum()


def _split(p):
    a, b = p.split(2)
    return (a.unsqueeze(1) * _t() + b * _t()).pow(2).sum()


def _split_sizes(p):
    a, b = p.split([1, 2])
    return (a * _t() + b.sum() * _t() ** 2).sum()


def _chunk(p):
    a, b = p.chunk(2)
    return (a.sum() * _t() + b * _t()).exp().sum()


def _tensor_split(p):
    a, b, c = p.tensor_split(3)
    return (a * _t() * b + c * _t()).sum()


def _second_only(p):
    _, b, _ = p
    return ((b * _t()) ** 2).sum()


CASES: dict[str, tuple[Callable, str]] = {
    "unpacking": (_unpack, "UnbindBackward0"),
    "iteration": (_iterate, "UnbindBackward0"),
    "starred target": (_starred, "UnbindBackward0"),
    "zip": (_zip, "UnbindBackward0"),
    "list": (_list, "UnbindBackward0"),
    "unbind": (_unbind, "UnbindBackward0"),
    "unbind rows": (_rows, "UnbindBackward0"),
    "split": (_split, "SplitBackward0"),
    "split sizes": (_split_sizes, "SplitWithSizesBackward0"),
    "chunk": (_chunk, "SplitBackward0"),
    "tensor_split": (_tensor_split, "SliceBackward0"),
    "second piece only": (_second_only, "UnbindBackward0"),
}
START = np.array([0.7, -1.3, 0.4])


def _numeric_grad(fn: Callable, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    grad = np.zeros_like(x)
    for i in range(x.size):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (fn(E.tensor(up)).item() - fn(E.tensor(down)).item()) / (2 * eps)
    return grad


@pytest.mark.parametrize("name", list(CASES))
def test_each_piece_gets_its_own_gradient(name: str) -> None:
    fn, _ = CASES[name]
    p = E.tensor(START.copy(), dtype=E.float64, requires_grad=True)
    fn(p).backward()
    np.testing.assert_allclose(p.grad.numpy(), _numeric_grad(fn, START), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "split, name",
    [
        (lambda p: tuple(p), "UnbindBackward0"),
        (lambda p: list(iter(p)), "UnbindBackward0"),
        (lambda p: p.unbind(), "UnbindBackward0"),
        (lambda p: p.split(2), "SplitBackward0"),
        (lambda p: p.split([1, 2]), "SplitWithSizesBackward0"),
        (lambda p: p.chunk(2), "SplitBackward0"),
        (lambda p: E.chunk(p, 3), "SplitBackward0"),
        (lambda p: p.tensor_split(3), "SliceBackward0"),
    ],
)
def test_pieces_have_pytorchs_grad_fn(split: Callable, name: str) -> None:
    pieces = split(E.tensor(START.copy(), requires_grad=True))
    assert {type(piece.grad_fn).__name__ for piece in pieces} == {name}


def test_the_edges_keep_their_output_numbers_when_an_op_broadcasts() -> None:
    """The root cause: `b * t` (b a 0-d piece, t of 3 elements) keeps the edge to output 1."""
    p = E.tensor([2.0, 3.0], requires_grad=True)
    _, b = p
    product = b * E.tensor([1.0, 2.0, 3.0])
    assert product.grad_fn.next_functions == ((b.grad_fn, 1), (None, 0))
    product.sum().backward()
    assert p.grad.tolist() == [0.0, 6.0]


def test_multi_output_ops_broadcast_against_each_other() -> None:
    """Two outputs of one node meeting in a broadcasting op (an outer product of rows)."""
    q = E.arange(6.0, dtype=E.float64).requires_grad_()
    a, b, c = q.view(3, 2).unbind()
    (a.unsqueeze(0) * b.unsqueeze(1) + c).pow(2).sum().backward()
    assert q.grad.tolist() == [40.0, 76.0, 14.0, 16.0, 16.0, 30.0]  # PyTorch 2.13's


SCRIPT = """\
import torch
t = torch.tensor([1., 2., 3.])
p = torch.tensor([2., 3.], requires_grad=True)
w, b = p
(w * t + b).sum().backward()
print(p.grad.tolist())
q = torch.tensor([2., 3., 4.], requires_grad=True)
a, *rest = q
total = 0
for i, x in enumerate(q):
    total = total + (x * (i + 1) * t).sum()
(total + (a * t).sum() + (rest[1] * t * t).sum()).backward()
print(q.grad.tolist(), type(a.grad_fn).__name__)
"""


def test_scripts_train_unpacked_parameters(tmp_path: Path) -> None:
    script = tmp_path / "unpack.py"
    script.write_text(SCRIPT)
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(REPO), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[6.0, 3.0]", "[12.0, 12.0, 32.0] UnbindBackward0"]
