"""Property test: random expression graphs drawn from the op table (hypothesis), differentiated by
the engine, agree with central finite differences in float64. No PyTorch needed; the same programs
are compared with PyTorch in `test_engine_torch.py` where it is installed."""

from __future__ import annotations

import numpy as np
from engine_cases import to_tensor
from engine_programs import LEAF_SHAPES, STEPS, _build, _shape_after, describe
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import autodiff_cli.engine as E

EPS = 1e-6
NAMES = sorted(STEPS)


@st.composite
def programs(draw: st.DrawFn) -> list[tuple[str, tuple[int, ...]]]:
    """2-6 steps; each picks an op of the table and operands from the values made so far."""
    shapes = list(LEAF_SHAPES)
    steps: list[tuple[str, tuple[int, ...]]] = []
    for _ in range(draw(st.integers(2, 6))):
        name = draw(st.sampled_from(NAMES))
        arity = STEPS[name][0]
        operands = tuple(
            draw(st.integers(0, len(shapes) - 1)) if k or not steps else len(shapes) - 1
            for k in range(arity)
        )
        shape = _shape_after(E, name, [shapes[i] for i in operands])
        if shape is not None:
            steps.append((name, operands))
            shapes.append(shape)
    return steps


def loss_of(program: list, leaf_values: list[np.ndarray], weight: np.ndarray | None) -> float:
    with E.no_grad():
        _, out = _build(E, program, leaf_values)
    w = np.ones(tuple(out.shape)) if weight is None else weight
    return float((out._data * w).sum())


def central_difference(
    program: list, leaf_values: list, weight: np.ndarray, where: tuple, step: float
) -> float:
    """d loss / d leaf_values[k][index], `where` = (k, index), by a central difference."""
    k, index = where
    plus = [v.copy() for v in leaf_values]
    minus = [v.copy() for v in leaf_values]
    plus[k][index] += step
    minus[k][index] -= step
    return (loss_of(program, plus, weight) - loss_of(program, minus, weight)) / (2 * step)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(), seed=st.integers(0, 2**16))
def test_random_graph_gradients_match_finite_differences(program, seed):
    rng = np.random.RandomState(seed)
    leaf_values = [rng.uniform(-1.5, 1.5, s) for s in LEAF_SHAPES]
    leaves, out = _build(E, program, leaf_values)
    if not out.requires_grad:
        return
    weight = rng.uniform(-1, 1, tuple(out.shape))
    (out * to_tensor(E, weight)).sum().backward()
    for k, leaf in enumerate(leaves):
        analytic = np.zeros(LEAF_SHAPES[k]) if leaf.grad is None else leaf.grad._data
        numeric = np.zeros(LEAF_SHAPES[k])
        for index in np.ndindex(LEAF_SHAPES[k]):
            numeric[index] = central_difference(program, leaf_values, weight, (k, index), EPS)
            finer = central_difference(program, leaf_values, weight, (k, index), EPS / 10)
            if not np.isclose(numeric[index], finer, rtol=1e-3, atol=1e-5):
                # a step of floor or round within EPS of the point (`|x| + floor(|x|) - x` is 1
                # for x > 1, a round number): no derivative there. Judged from the function
                # alone, never from the engine's gradient.
                reject()
        np.testing.assert_allclose(
            analytic, numeric, rtol=1e-4, atol=1e-6, err_msg=f"leaf v{k} of {describe(program)}"
        )
