"""Start-up time of the one-liner against `python -c "import numpy"`, side by side.

Runs both commands N times, interleaved (so that a busy machine slows both alike), and prints the
best time of each and their ratio. The target: `autodiff grad` within 1.6x of importing numpy.

    python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ONE_LINER = ["-m", "autodiff_cli", "grad", "x**2*sin(x)", "--at", "x=3"]
NUMPY = ["-c", "import numpy"]
TARGET = 1.6


def best_of(runs: int) -> tuple[float, float]:
    """(numpy, autodiff) best times. Both run as an installed package runs them, from compiled
    bytecode (pip compiles it at install time; numpy's is there), so ours is compiled first."""
    import compileall

    compileall.compile_dir(str(REPO / "autodiff_cli"), quiet=1)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times: dict[str, list[float]] = {"numpy": [], "autodiff": []}
    for _ in range(runs):
        for label, args in (("numpy", NUMPY), ("autodiff", ONE_LINER)):
            start = time.perf_counter()
            subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
            times[label].append(time.perf_counter() - start)
    return min(times["numpy"]), min(times["autodiff"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (best is kept)")
    args = parser.parse_args()
    numpy_time, autodiff_time = best_of(args.runs)
    ratio = autodiff_time / numpy_time
    print(f"python -c 'import numpy'        {numpy_time * 1000:7.1f} ms")
    print(f"autodiff grad 'x**2*sin(x)' ... {autodiff_time * 1000:7.1f} ms")
    print(f"ratio {ratio:.2f}x (target {TARGET}x): {'ok' if ratio <= TARGET else 'too slow'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
