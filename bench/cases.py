"""Benchmark cases, each written once as torch-style code and run on a given `torch` module.

Run as `python bench/cases.py BACKEND CASE...` (BACKEND: autodiff | torch | prototype); prints one
JSON object per case. The MLP cases also time the hand-written numpy floor, alternately in the same
process. `bench/run.py` drives it and compares backends side by side.

`prototype` is the lean-core reference the issue about the core's speed measured its goals with
(`../shared/reference/lean_engine_prototype.py`, or $AUTODIFF_PROTOTYPE; it is not part of this
project and is only loaded from there): it runs the scalar chain and `lean_mlp`, the small MLP
step written with only the ops it has (no biases; squeeze; `p.grad * 0.1`), so that its figures
and ours are measured side by side on the same machine.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn: Callable[[], float], repeats: int) -> float:
    """The smallest of `repeats` timings (each `fn()` returns seconds): the least noisy estimate."""
    return min(fn() for _ in range(repeats))


PROTOTYPE = Path(
    os.environ.get("AUTODIFF_PROTOTYPE", ROOT.parent / "shared/reference/lean_engine_prototype.py")
)


def load_backend(name: str) -> Any:
    if name == "prototype":
        spec = importlib.util.spec_from_file_location("lean_engine_prototype", PROTOTYPE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    if name == "torch":
        import torch

        torch.set_num_threads(1)
        return torch
    sys.path.insert(0, str(ROOT))
    import autodiff_cli.engine as engine

    return engine


# -- 1. scalar chain ------------------------------------------------------------------------------
def scalar_chain(torch: Any, n: int = 20_000, repeats: int = 7) -> dict:
    def once() -> float:
        x = torch.tensor(1.0, requires_grad=True)
        start = time.perf_counter()
        y = x
        for _ in range(n):
            y = y * 1.0001 + 0.0001
        y.backward()
        return time.perf_counter() - start

    seconds = best_of(once, repeats)
    return {"us_per_op": seconds / (2 * n) * 1e6}


# -- 2./3. MLP training steps ---------------------------------------------------------------------
def _mlp_data(np: Any, batch: int, hidden: int) -> tuple:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, 2)).astype(np.float32)
    y = (x[:, :1] * x[:, 1:] > 0).astype(np.float32)
    shapes = [(2, hidden), (hidden,), (hidden, hidden), (hidden,), (hidden, 1), (1,)]
    params = [(rng.standard_normal(s) * 0.3).astype(np.float32) for s in shapes]
    return x, y, params


def _engine_step(torch: Any, batch: int, hidden: int) -> Callable[[], None]:
    """One training step on `torch` (the engine or PyTorch)."""
    import numpy as np

    x_np, y_np, params_np = _mlp_data(np, batch, hidden)
    x, y = torch.tensor(x_np), torch.tensor(y_np)
    params = [torch.tensor(p, requires_grad=True) for p in params_np]
    w1, b1, w2, b2, w3, b3 = params
    F = torch.nn.functional

    def step() -> None:
        h = torch.tanh(x @ w1 + b1)
        h = torch.tanh(h @ w2 + b2)
        loss = F.binary_cross_entropy_with_logits(h @ w3 + b3, y)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.1 * p.grad
                p.grad.zero_()

    return step


def _lean_step(torch: Any, batch: int, hidden: int) -> Callable[[], None]:
    """The small MLP step with only the prototype's ops: no biases, the logits squeezed to the
    targets' shape, `p.grad * 0.1`."""
    import numpy as np

    x_np, y_np, params_np = _mlp_data(np, batch, hidden)
    x, y = torch.tensor(x_np), torch.tensor(y_np[:, 0].copy())
    w1, w2, w3 = (torch.tensor(p, requires_grad=True) for p in params_np[::2])
    params = [w1, w2, w3]
    F = torch.nn.functional

    def step() -> None:
        h = torch.tanh(x @ w1)
        h = torch.tanh(h @ w2)
        loss = F.binary_cross_entropy_with_logits((h @ w3).squeeze(1), y)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= p.grad * 0.1
                p.grad.zero_()

    return step


def _lean_numpy_step(batch: int, hidden: int) -> Callable[[], None]:
    """`_lean_step` written by hand in numpy."""
    import numpy as np

    x, y, params = _mlp_data(np, batch, hidden)
    w1, w2, w3 = params[::2]
    n = y.size

    def step() -> None:
        a1 = np.tanh(x @ w1)
        a2 = np.tanh(a1 @ w2)
        z = a2 @ w3
        _ = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
        dz = (1 / (1 + np.exp(-z)) - y) / n
        dw3 = a2.T @ dz
        d2 = (dz @ w3.T) * (1 - a2 * a2)
        dw2 = a1.T @ d2
        d1 = (d2 @ w2.T) * (1 - a1 * a1)
        dw1 = x.T @ d1
        for p, g in zip((w1, w2, w3), (dw1, dw2, dw3)):
            p -= 0.1 * g

    return step


def _numpy_step(batch: int, hidden: int) -> Callable[[], None]:
    """The floor: the same step written by hand in numpy (forward, backward, SGD)."""
    import numpy as np

    x, y, params = _mlp_data(np, batch, hidden)
    w1, b1, w2, b2, w3, b3 = params
    n = y.size

    def step() -> None:
        a1 = np.tanh(x @ w1 + b1)
        a2 = np.tanh(a1 @ w2 + b2)
        z = a2 @ w3 + b3
        _ = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
        dz = (1 / (1 + np.exp(-z)) - y) / n
        dw3, db3 = a2.T @ dz, dz.sum(0)
        d2 = (dz @ w3.T) * (1 - a2 * a2)
        dw2, db2 = a1.T @ d2, d2.sum(0)
        d1 = (d2 @ w2.T) * (1 - a1 * a1)
        dw1, db1 = x.T @ d1, d1.sum(0)
        for p, g in zip((w1, b1, w2, b2, w3, b3), (dw1, db1, dw2, db2, dw3, db3)):
            p -= 0.1 * g  # (the gradients are new arrays: nothing to zero)

    return step


def _time_steps(step: Callable[[], None], steps: int) -> float:
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return time.perf_counter() - start


def mlp_step(
    torch: Any,
    batch: int,
    hidden: int,
    steps: int,
    repeats: int,
    with_floor: bool = False,
    lean: bool = False,
) -> dict:
    """µs per training step; with `with_floor`, the numpy floor too, timed alternately in this
    same process so that both see the same machine. `lean`: the prototype's step."""
    engine_step = (_lean_step if lean else _engine_step)(torch, batch, hidden)
    floor_step = None
    if with_floor:
        floor_step = (_lean_numpy_step if lean else _numpy_step)(batch, hidden)
    engine_step()
    best_engine = best_floor = float("inf")
    for _ in range(repeats):
        best_engine = min(best_engine, _time_steps(engine_step, steps))
        if floor_step is not None:
            best_floor = min(best_floor, _time_steps(floor_step, steps))
    result = {"us_per_step": best_engine / steps * 1e6}
    if floor_step is not None:
        result["floor_us_per_step"] = best_floor / steps * 1e6
    return result


# -- 7. memory --------------------------------------------------------------------------------------
def memory_growth(torch: Any, passes: int = 20) -> dict:
    """Traced memory after repeated forward+backward passes on a 512x512 graph (saved tensors
    must be freed, so it stays flat)."""
    import tracemalloc

    w = torch.ones(512, 512, requires_grad=True)
    x = torch.ones(512, 512)

    def one_pass() -> None:
        y = ((x @ w).tanh() * 2.0).sum()
        y.backward()

    one_pass()
    gc.collect()
    tracemalloc.start()
    one_pass()
    gc.collect()
    first = tracemalloc.get_traced_memory()[0]
    for _ in range(passes):
        one_pass()
    gc.collect()
    last, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"growth_mib": (last - first) / 2**20, "peak_mib": peak / 2**20}


def memory_per_node(torch: Any, n: int = 50_000) -> dict:
    """Traced bytes a graph keeps per node: the scalar chain `y = y * 1.0001 + 0.0001` (its
    intermediate tensors are freed; the nodes, their edges and saved values stay)."""
    import tracemalloc

    x = torch.tensor(1.0, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    y = x
    for _ in range(n):
        y = y * 1.0001 + 0.0001
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    del y
    return {"bytes_per_node": used / (2 * n)}


def peak_memory_graph(torch: Any) -> dict:
    """Peak resident memory added by building and differentiating a 1024x1024 graph."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    w = torch.ones(1024, 1024, requires_grad=True)
    h = w
    for _ in range(8):
        h = (h * 1.01).tanh()
    h.sum().backward()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"peak_rss_mib": (after - before) / 1024}


# -- 8. deep graphs ----------------------------------------------------------------------------------
def deep_chain(torch: Any, n: int = 200_000) -> dict:
    start = time.perf_counter()
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    y.backward()
    ok = float(x.grad) == 1.0
    del y
    return {"ok": ok, "seconds": time.perf_counter() - start}


CASES = {
    "scalar_chain": lambda torch: scalar_chain(torch),
    "small_mlp": lambda torch: mlp_step(torch, 100, 16, steps=200, repeats=7, with_floor=True),
    "lean_mlp": lambda torch: mlp_step(
        torch, 100, 16, steps=200, repeats=7, with_floor=True, lean=True
    ),
    "large_mlp": lambda torch: mlp_step(torch, 4096, 256, steps=10, repeats=7, with_floor=True),
    "memory": lambda torch: memory_growth(torch),
    "memory_per_node": lambda torch: memory_per_node(torch),
    "peak_memory": lambda torch: peak_memory_graph(torch),
    "deep_chain": lambda torch: deep_chain(torch),
}


def main(argv: list[str]) -> None:
    backend, names = argv[0], argv[1:]
    gc.set_threshold(*_GC_THRESHOLDS)  # the same collector settings for every backend
    torch = load_backend(backend)
    for name in names:
        result = CASES[name](torch)
        print(json.dumps({"case": name, **result}), flush=True)


_GC_THRESHOLDS = (100_000, 50, 100)  # what the `autodiff` CLI sets (cli/app.py)

if __name__ == "__main__":
    main(sys.argv[1:])
