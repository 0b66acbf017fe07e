"""`--check`: every derivative `grad` printed, against central finite differences in float64."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autodiff_cli.cli.grad_cmd import Expression, GradResult

EPS = 1e-6
TOLERANCES = {"float64": (1e-5, 1e-3), "float32": (1e-4, 1e-3)}  # (atol, rtol), like gradcheck


def central_differences(func: Callable[..., Any], points: list[Any], index: int) -> Any:
    """d func / d points[index] by central differences: shape func.shape + point.shape."""
    import numpy as np

    point = points[index]
    base = np.asarray(func(*points), dtype=np.float64)
    columns = np.zeros((base.size, point.size))
    flat = point.reshape(-1)
    for k in range(point.size):
        original = flat[k]
        flat[k] = original + EPS
        plus = np.asarray(func(*points), dtype=np.float64).reshape(-1)
        flat[k] = original - EPS
        minus = np.asarray(func(*points), dtype=np.float64).reshape(-1)
        flat[k] = original
        columns[:, k] = (plus - minus) / (2 * EPS)
    return columns.reshape(base.shape + point.shape)


def _float64_function(function: Expression, wrap_grad: bool = False) -> Callable[..., Any]:
    """The expression on float64 numpy arrays, returning a float64 numpy array."""
    import numpy as np

    import autodiff_cli.engine as torch

    def evaluate(*arrays: Any) -> Any:
        tensors = [torch.tensor(array.copy(), dtype=torch.float64) for array in arrays]
        with torch.no_grad():
            out = function(*tensors)
        return np.asarray(out.detach().numpy(), dtype=np.float64)

    return evaluate


def _derivative_function(function: Expression, order: int, index: int) -> Callable[..., Any]:
    """The sum of the analytic (order)-th derivative w.r.t. input `index`, in float64 (the
    quantity whose gradient is the (order+1)-th derivative that `--order` reports)."""
    import numpy as np

    import autodiff_cli.engine as torch
    from autodiff_cli.cli.grad_cmd import nth_derivatives

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
    import numpy as np

    import autodiff_cli.engine as torch

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


def check_outcome(outcome: GradResult, function: Expression) -> dict[str, Any]:
    """Compare each reported derivative with finite differences; the largest error and where."""
    import numpy as np

    from autodiff_cli.cli.grad_cmd import HESSIAN, JACOBIAN, ORDER, VJP

    points = [
        np.array(outcome.leaves[name].detach().numpy(), dtype=np.float64) for name in outcome.wrt
    ]
    value_of = _float64_function(function)
    pairs: list[tuple[str, Any, Any]] = []  # (label, analytic, numeric)
    for index, name in enumerate(outcome.wrt):
        if outcome.mode == HESSIAN:
            numeric_row = _gradient_function(function, index)
            for column, other in enumerate(outcome.wrt):
                numeric = central_differences(numeric_row, points, column)
                pairs.append((f"hessian[{name}][{other}]", outcome.hessian[name][other], numeric))
            continue
        if outcome.mode == ORDER:
            derivative = _derivative_function(function, outcome.order - 1, index)
            numeric = central_differences(derivative, points, index)
            pairs.append(
                (f"order-{outcome.order} derivative of {name}", outcome.derivatives[name], numeric)
            )
            continue
        jacobian = central_differences(value_of, points, index)
        if outcome.mode == JACOBIAN:
            pairs.append((f"jacobian[{name}]", outcome.jacobian[name], jacobian))
        else:
            out_shape = tuple(outcome.result.shape)
            seed = (
                np.ones(out_shape)
                if outcome.mode != VJP
                else np.asarray(outcome.seed.numpy(), dtype=np.float64)
            )
            numeric = np.tensordot(seed, jacobian, axes=len(out_shape))
            pairs.append((f"{name}.grad", outcome.gradients[name], numeric))

    atol, rtol = TOLERANCES.get(outcome.result.dtype.name, TOLERANCES["float32"])
    worst = {"max_abs_error": 0.0, "max_rel_error": 0.0, "where": None}
    ok = True
    for label, analytic, numeric in pairs:
        values = (
            np.zeros(numeric.shape)
            if analytic is None
            else np.asarray(analytic.detach().numpy(), dtype=np.float64).reshape(numeric.shape)
        )
        error = np.abs(values - numeric)
        if error.size == 0:
            continue
        relative = error / np.maximum(np.abs(numeric), 1e-12)
        if not np.all(error <= atol + rtol * np.abs(numeric)):
            ok = False
        if float(error.max()) >= worst["max_abs_error"]:
            worst["max_abs_error"] = float(error.max())
            worst["where"] = label
        worst["max_rel_error"] = max(worst["max_rel_error"], float(np.min([relative.max(), 1e300])))
    return {**worst, "eps": EPS, "atol": atol, "rtol": rtol, "ok": ok, "dtype": "float64"}
