"""`--check`: every derivative `grad` printed, against central finite differences in float64.

Elements the differences cannot judge are reported rather than counted as errors: where the
function or a difference is not finite (`log(x)` at -1, `sqrt(x)` at 0), and at kinks, where
the left and right one-sided differences disagree at two step sizes (`relu(x)` at 0). The
tolerance allows for the rounding of the function's values (large values leave the differences
fewer exact digits).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import autodiff_cli.engine as torch
from autodiff_cli.cli.grad.result import (
    HESSIAN,
    JACOBIAN,
    ORDER,
    VJP,
    Expression,
    GradResult,
    nth_derivatives,
)

EPS = 1e-6
ROUNDING = 8 * 2.0**-52  # relative error allowed in one float64 evaluation of the function
TOLERANCES = {"float64": (1e-5, 1e-3), "float32": (1e-4, 1e-3)}  # (atol, rtol), like gradcheck


@dataclass
class Differences:
    """Finite differences of func w.r.t. one point, each of shape func.shape + point.shape."""

    central: Any  # (f(x+eps) - f(x-eps)) / 2eps
    left: Any  # (f(x) - f(x-eps/10)) / (eps/10)
    right: Any  # (f(x+eps/10) - f(x)) / (eps/10)
    jump: Any  # right - left one-sided differences at step eps (a kink's jump stays put)
    noise: Any  # how far rounding the function's values can move the differences
    unfinite: list[tuple[float, float] | None]  # per point element: (offset, f value) or None

    def contracted(self, seed: Any) -> Differences:
        """The differences of sum(seed * func): the point's shape remains."""

        def dot(array: Any) -> Any:
            return np.tensordot(seed, array, axes=seed.ndim)

        arrays = (self.central, self.left, self.right, self.jump)
        noise = np.tensordot(np.abs(seed), self.noise, axes=seed.ndim)
        return Differences(*map(dot, arrays), noise, self.unfinite)


def finite_differences(func: Callable[..., Any], points: list[Any], index: int) -> Differences:
    """d func / d points[index] by central and one-sided differences."""
    point = points[index]
    base = np.asarray(func(*points), dtype=np.float64)
    flat_base = base.reshape(-1)
    small = EPS / 10
    steps = (EPS, -EPS, small, -small)
    columns = {step: np.zeros((base.size, point.size)) for step in steps}
    unfinite: list[tuple[float, float] | None] = []
    flat = point.reshape(-1)
    for k in range(point.size):
        original = flat[k]
        bad = None if np.all(np.isfinite(flat_base)) else (0.0, _first_unfinite(flat_base))
        for step in steps:
            flat[k] = original + step
            shifted = np.asarray(func(*points), dtype=np.float64).reshape(-1)
            columns[step][:, k] = shifted
            if bad is None and not np.all(np.isfinite(shifted)):
                bad = (step, _first_unfinite(shifted))
        flat[k] = original
        unfinite.append(bad)
    shape = base.shape + point.shape
    column = flat_base[:, None]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        central = (columns[EPS] - columns[-EPS]) / (2 * EPS)
        left = (column - columns[-small]) / small
        right = (columns[small] - column) / small
        jump = (columns[EPS] - column) / EPS - (column - columns[-EPS]) / EPS
        largest = np.abs(column)
        for values in columns.values():
            largest = np.maximum(largest, np.abs(values))
        noise = ROUNDING * 2 * largest / small  # the one-sided differences at eps/10: the worst
    arrays = (central, left, right, jump, noise)
    return Differences(*(a.reshape(shape) for a in arrays), unfinite)


def _first_unfinite(values: Any) -> float:
    return float(values[~np.isfinite(values)][0])


def _float64_function(function: Expression) -> Callable[..., Any]:
    """The expression on float64 numpy arrays, returning a float64 numpy array."""

    def evaluate(*arrays: Any) -> Any:
        tensors = [torch.tensor(array.copy(), dtype=torch.float64) for array in arrays]
        with torch.no_grad():
            out = function(*tensors)
        return np.asarray(out.detach().numpy(), dtype=np.float64)

    return evaluate


def _derivative_function(function: Expression, order: int, index: int) -> Callable[..., Any]:
    """The sum of the analytic (order)-th derivative w.r.t. input `index`, in float64 (the
    quantity whose gradient is the (order+1)-th derivative that `--order` reports)."""

    def evaluate(*arrays: Any) -> Any:
        tensors = [
            torch.tensor(array.copy(), dtype=torch.float64, requires_grad=True) for array in arrays
        ]
        out = function(*tensors)
        if order == 0:
            return np.asarray(out.detach().sum().numpy())
        names = [str(i) for i in range(len(tensors))]
        derivative = nth_derivatives(out, tuple(tensors), names, order)[str(index)]
        return np.asarray(derivative.sum().numpy())

    return evaluate


def _gradient_function(function: Expression, row: int) -> Callable[..., Any]:

    def evaluate(*arrays: Any) -> Any:
        tensors = [
            torch.tensor(array.copy(), dtype=torch.float64, requires_grad=True) for array in arrays
        ]
        out = function(*tensors).reshape(())
        (gradient,) = torch.autograd.grad(out, tensors[row], allow_unused=True)
        if gradient is None:
            return np.zeros(arrays[row].shape)
        return np.asarray(gradient.numpy(), dtype=np.float64)

    return evaluate


@dataclass
class _Pair:
    label: str  # what was reported: "x.grad", "jacobian[x]", ...
    of: str  # the function the differences were taken of
    leaf: str  # the leaf varied
    analytic: Any
    numeric: Differences


def _pairs(outcome: GradResult, function: Expression, points: list[Any]) -> list[_Pair]:
    value_of = _float64_function(function)
    pairs = []
    for index, name in enumerate(outcome.wrt):
        if outcome.mode == HESSIAN:
            numeric_row = _gradient_function(function, index)
            for column, other in enumerate(outcome.wrt):
                numeric = finite_differences(numeric_row, points, column)
                analytic = outcome.hessian[name][other]
                label = f"hessian[{name}][{other}]"
                pairs.append(_Pair(label, f"the gradient d/d{name}", other, analytic, numeric))
            continue
        if outcome.mode == ORDER:
            derivative = _derivative_function(function, outcome.order - 1, index)
            numeric = finite_differences(derivative, points, index)
            of = "the expression"
            if outcome.order > 1:
                of = f"the order-{outcome.order - 1} derivative"
            label = f"order-{outcome.order} derivative of {name}"
            pairs.append(_Pair(label, of, name, outcome.derivatives[name], numeric))
            continue
        jacobian = finite_differences(value_of, points, index)
        if outcome.mode == JACOBIAN:
            pairs.append(
                _Pair(f"jacobian[{name}]", "the expression", name, outcome.jacobian[name], jacobian)
            )
            continue
        seed = np.ones(tuple(outcome.result.shape))
        if outcome.mode == VJP:
            seed = np.asarray(outcome.seed.numpy(), dtype=np.float64)
        numeric = jacobian.contracted(seed)
        pairs.append(
            _Pair(f"{name}.grad", "the expression", name, outcome.gradients[name], numeric)
        )
    return pairs


def _number(value: float) -> str:
    return f"{value:.6g}"


def _element_text(index: tuple[int, ...]) -> str:
    return f"[{', '.join(map(str, index))}]" if index else ""


def _problem(
    pair: _Pair, index: tuple[int, ...], point: Any, kind: str, message: str
) -> dict[str, Any]:
    """One element the differences could not judge, located by the leaf element varied."""
    leaf_index = index[len(index) - point.ndim :] if point.ndim else ()
    at = f"{pair.leaf}{_element_text(leaf_index)}={_number(float(point[leaf_index]))}"
    return {
        "where": pair.label,
        "element": list(index),
        "leaf": pair.leaf,
        "leaf_element": list(leaf_index),
        "kind": kind,
        "message": f"{pair.label}{_element_text(index)} at {at}: {message}",
    }


def _unfinite_message(pair: _Pair, value: float, numeric: float, bad: Any, at: float) -> str:
    reported = f"the derivative is {_number(value)}"
    if math.isfinite(numeric):
        return f"not finite: {reported}, finite differences give {_number(numeric)}"
    if bad is not None:
        offset, f_value = bad
        where = "there" if offset == 0 else f"at {pair.leaf}={_number(at + offset)}"
        return (
            f"not finite: {pair.of} is {_number(f_value)} {where}, so finite differences "
            f"cannot check it ({reported})"
        )
    return f"not finite: the finite difference is {_number(numeric)} ({reported})"


def _judge(pair: _Pair, index: tuple[int, ...], value: float, point: Any, tol: Any) -> Any:
    """Why finite differences cannot judge an element, as (problem, reported value acceptable),
    or None when they can."""
    numeric = pair.numeric
    central = float(numeric.central[index])
    leaf_index = index[len(index) - point.ndim :] if point.ndim else ()
    if not (math.isfinite(value) and math.isfinite(central)):
        flat_leaf = int(np.ravel_multi_index(leaf_index, point.shape)) if point.ndim else 0
        at = float(point[leaf_index])
        text = _unfinite_message(pair, value, central, numeric.unfinite[flat_leaf], at)
        return _problem(pair, index, point, "not finite", text), True
    left, right = float(numeric.left[index]), float(numeric.right[index])
    small = EPS / 10
    noise = float(numeric.noise[index])  # of a one-sided difference at eps/10
    rise_small, rise = (left + right) * small, central * 2 * EPS  # f(x+step) - f(x-step)
    if abs(rise) > tol(0) + noise * small and abs(rise_small) > abs(rise) / 2:
        text = (
            f"not differentiable ({pair.of} is not continuous there: it changes by "
            f"{_number(rise_small)} between {pair.leaf}-{small:g} and {pair.leaf}+{small:g}); "
            f"the derivative is {_number(value)}"
        )
        return _problem(pair, index, point, "not differentiable", text), True
    jump_small, jump = abs(right - left), abs(float(numeric.jump[index]))
    if not (jump_small > tol(max(abs(left), abs(right))) + noise and jump_small > jump / 2):
        return None
    low, high = min(left, right), max(left, right)
    between = low - tol(high) <= value <= high + tol(high)
    verdict = "which lies between them" if between else "outside them: MISMATCH"
    text = (
        f"not differentiable (a kink: one-sided differences {_number(left)} from the left, "
        f"{_number(right)} from the right); the derivative is {_number(value)}, {verdict}"
    )
    return _problem(pair, index, point, "not differentiable", text), between


def check_outcome(outcome: GradResult, function: Expression) -> dict[str, Any]:
    """Compare each reported derivative with finite differences: the largest error and where,
    and the elements where the derivative cannot be checked (not finite, not differentiable)."""
    points = [
        np.array(outcome.leaves[name].detach().numpy(), dtype=np.float64) for name in outcome.wrt
    ]
    point_of = dict(zip(outcome.wrt, points))
    atol, rtol = TOLERANCES.get(outcome.result.dtype.name, TOLERANCES["float32"])

    def tol(magnitude: Any) -> Any:
        return atol + rtol * np.abs(magnitude)

    worst = {"max_abs_error": 0.0, "max_rel_error": 0.0, "where": None}
    mismatch = False
    checked = 0
    problems: list[dict[str, Any]] = []
    for pair in _pairs(outcome, function, points):
        central = pair.numeric.central
        values = np.zeros(central.shape)
        if pair.analytic is not None:
            values = np.asarray(pair.analytic.detach().numpy(), dtype=np.float64)
            values = values.reshape(central.shape)
        with np.errstate(invalid="ignore", over="ignore"):
            error = np.abs(values - central)
            close = error <= tol(central) + pair.numeric.noise * (EPS / 10) / (2 * EPS)
        judged = np.ones(values.shape, dtype=bool)
        for index in np.ndindex(values.shape):
            unjudged = _judge(pair, index, float(values[index]), point_of[pair.leaf], tol)
            if unjudged is None:
                mismatch = mismatch or not close[index]
                continue
            problem, between = unjudged
            problems.append(problem)
            judged[index] = False
            mismatch = mismatch or not between
        error, central = error[judged], central[judged]
        checked += error.size
        if error.size == 0:
            continue
        relative = error / np.maximum(np.abs(central), 1e-12)
        if float(error.max()) >= worst["max_abs_error"]:
            worst["max_abs_error"] = float(error.max())
            worst["where"] = pair.label
        worst["max_rel_error"] = max(worst["max_rel_error"], float(np.min([relative.max(), 1e300])))
    unfinite = any(problem["kind"] == "not finite" for problem in problems)
    verdict = "MISMATCH" if mismatch else "not checked" if unfinite else "ok"
    return {
        **worst,
        "eps": EPS,
        "atol": atol,
        "rtol": rtol,
        "ok": verdict == "ok",
        "verdict": verdict,
        "checked": checked,
        "dtype": "float64",
        "problems": problems,
    }
