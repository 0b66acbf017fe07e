"""`torch.optim.LBFGS`: limited-memory BFGS with its closure, PyTorch's algorithm step by step
(two-loop recursion over the last `history_size` curvature pairs, the first step scaled by
1/|g|₁, optional strong-Wolfe line search with cubic interpolation).

PyTorch keeps the scalars of the recursion (ys, ρ, α, H_diag, gᵀd) as 0-d float32 tensors that
Python floats do not promote; here they are numpy float32 scalars, which behave alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.grad_mode import enable_grad, no_grad
from ..core.tensor import Tensor, _wrap
from ..profiler.recorder import optimizer_range
from ..pytorch_home import print_from
from .optimizer import Optimizer, check_non_negative


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None) -> Any:
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), within bounds."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:
        d2 = np.sqrt(d2_square)
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """PyTorch's line search: bracket a step meeting the strong Wolfe conditions, then zoom."""
    d_norm = np.abs(d).max()
    g = g.copy()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = np.dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(
            t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step)
        )
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = np.dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
        bracket_gtd = [gtd, gtd_new]
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = np.dot(g_new, d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.copy(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.copy(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


def _direction(flat_grad, prev_flat_grad, d, t, memory, h_diag, al, history_size) -> tuple:
    """The new search direction -H·g by the two-loop recursion, after adding the last
    curvature pair (s, y) to `memory` (old_dirs, old_stps, ro) when yᵀs > 1e-10."""
    old_dirs, old_stps, ro = memory
    y = flat_grad - prev_flat_grad
    s = d * np.asarray(t, d.dtype)
    ys = np.dot(y, s)
    if ys > 1e-10:
        if len(old_dirs) == history_size:
            old_dirs.pop(0)
            old_stps.pop(0)
            ro.pop(0)
        old_dirs.append(y)
        old_stps.append(s)
        ro.append(1.0 / ys)
        h_diag = ys / np.dot(y, y)
    num_old = len(old_dirs)
    q = -flat_grad
    for i in range(num_old - 1, -1, -1):
        al[i] = np.dot(old_stps[i], q) * ro[i]
        q = q + (-al[i]) * old_dirs[i]
    d = r = q * h_diag
    for i in range(num_old):
        be_i = np.dot(old_dirs[i], r) * ro[i]
        r += (al[i] - be_i) * old_stps[i]
    return d, h_diag


def _as_state(value: Any) -> Any:
    """A value kept in `state` as PyTorch keeps it (arrays and float32 scalars as tensors)."""
    if isinstance(value, np.ndarray | np.floating):
        return _wrap(np.array(value))
    if isinstance(value, list):
        return [_as_state(v) for v in value]
    return value


def _from_state(value: Any) -> Any:
    if isinstance(value, Tensor):
        data = np.array(value._data)
        return data[()] if data.ndim == 0 else data
    if isinstance(value, list):
        return [_from_state(v) for v in value]
    return value


_KEPT = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss")


class LBFGS(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        check_non_negative(lr=lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr, "max_iter": max_iter, "max_eval": max_eval,
            "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
            "history_size": history_size, "line_search_fn": line_search_fn,
        }  # fmt: skip
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> np.ndarray:
        views = [
            np.zeros(p._data.size, p._data.dtype)
            if p._grad is None
            else np.asarray(p._grad._data).reshape(-1)
            for p in self._params
        ]
        return np.concatenate(views, 0)

    def _add_grad(self, step_size: Any, update: np.ndarray) -> None:
        offset = 0
        for p in self._params:
            numel = p._data.size
            piece = update[offset : offset + numel].reshape(p._data.shape)
            alpha = np.asarray(float(step_size), p._data.dtype)
            self._write(p, np.asarray(p._data) + alpha * piece)
            offset += numel

    def _clone_param(self) -> list:
        return [np.array(p._data) for p in self._params]

    def _set_param(self, values: list) -> None:
        for p, data in zip(self._params, values):
            self._write(p, data)

    def _directional_evaluate(self, closure: Callable, x: list, t: Any, d: np.ndarray) -> tuple:
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    @optimizer_range
    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        self._opt_called = True
        with no_grad():
            return self._step(closure)

    def _evaluate(self, closure: Callable) -> Any:
        with enable_grad():
            return closure()

    def _step(self, closure: Callable) -> Any:
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        opt_cond = np.abs(flat_grad).max() <= tolerance_grad
        if opt_cond:
            return orig_loss
        d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad, prev_loss = (
            _from_state(state.get(key)) for key in _KEPT
        )
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1
            else:
                if "al" not in state:
                    state["al"] = [None] * history_size
                state["al"] = al = _from_state(state["al"])
                memory = (old_dirs, old_stps, ro)
                d, h_diag = _direction(
                    flat_grad, prev_flat_grad, d, t, memory, h_diag, al, history_size
                )
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr
            else:
                t = lr
            gtd = np.dot(flat_grad, d)
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def obj_func(x: list, t: Any, d: np.ndarray) -> tuple:
                    return self._directional_evaluate(lambda: self._evaluate(closure), x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    obj_func, x_init, t, d, loss, flat_grad, gtd
                )
                self._add_grad(t, d)
                opt_cond = np.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    loss = float(self._evaluate(closure))
                    flat_grad = self._gather_flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if np.abs(d * np.asarray(t, d.dtype)).max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break
        kept = (d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad, prev_loss)
        for key, value in zip(_KEPT, kept):
            state[key] = _as_state(value)
        if "al" in state:
            state["al"] = _as_state(state["al"])
        return orig_loss


print_from("torch.optim.lbfgs", LBFGS)
