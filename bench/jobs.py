"""`autodiff run --jobs 1` against `--jobs 2` (and more) on a batch of small scripts.

Each script runs in its own child forked from one warm parent, so extra jobs should only help
(issue 17 item 1: --jobs 2 was several times slower than serial when every worker re-imported
the engine). Runs each setting N times, interleaved, and prints the best wall time of each.

    python bench/jobs.py [--scripts 12] [--runs 5] [--jobs 1 2 4]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = """import torch
x = torch.linspace(-1, 1, 50, requires_grad=True)
for step in range({steps}):
    y = (torch.tanh(x * {index}) ** 2).sum()
    y.backward()
print(round(x.grad.sum().item(), 4))
"""


def write_scripts(folder: Path, count: int, steps: int) -> list[str]:
    paths = []
    for index in range(count):
        path = folder / f"script_{index:02d}.py"
        path.write_text(SCRIPT.format(steps=steps, index=index + 1), encoding="utf-8")
        paths.append(str(path))
    return paths


def best_times(paths: list[str], jobs: list[int], runs: int) -> dict[int, float]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times: dict[int, list[float]] = {n: [] for n in jobs}
    outputs: dict[int, str] = {}
    for _ in range(runs):
        for n in jobs:
            command = [sys.executable, "-m", "autodiff_cli", "run", "--jobs", str(n), *paths]
            start = time.perf_counter()
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            times[n].append(time.perf_counter() - start)
            outputs[n] = done.stdout
    assert len(set(outputs.values())) == 1, "the outputs differ between job counts"
    return {n: min(values) for n, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scripts", type=int, default=12, help="scripts in the batch")
    parser.add_argument("--steps", type=int, default=20, help="backward passes per script")
    parser.add_argument("--runs", type=int, default=5, help="runs of each setting (best kept)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="job counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_scripts(Path(folder), args.scripts, args.steps)
        best = best_times(paths, args.jobs, args.runs)
    serial = best[args.jobs[0]]
    for n, seconds in best.items():
        print(
            f"--jobs {n}: {seconds * 1000:7.1f} ms  ({serial / seconds:.2f}x of --jobs {args.jobs[0]})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
