"""One training step of a LeNet-style CNN on a batch of 64 28x28 images: forward, backward and
an SGD step, best of N, for the engine and (when a Python with torch is given) PyTorch.

    python bench/cnn_step.py [--runs N] [--torch-python PATH]

The network is d2l's/PyTorch tutorial's LeNet: conv 1->6 5x5 (padding 2), ReLU, max pool 2,
conv 6->16 5x5, ReLU, max pool 2, then Linear 400->120->84->10 and cross entropy. The target
is "well under a second" per step (issue 30).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 1.0

STEP = """
import time
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(64, 1, 28, 28)
y = torch.randint(0, 10, (64,))

def step():
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    return loss

step()  # warm-up
best = float("inf")
for _ in range(RUNS):
    start = time.perf_counter()
    step()
    best = min(best, time.perf_counter() - start)
print(best)
"""


def time_engine(runs: int) -> float:
    code = (
        "import autodiff_cli.engine as torch\nfrom autodiff_cli.engine import nn\n"
        + STEP.replace("RUNS", str(runs))
    )
    return _run([sys.executable, "-c", code], {"PYTHONPATH": str(REPO)})


def time_torch(python: str, runs: int) -> float:
    code = "import torch\nfrom torch import nn\ntorch.set_num_threads(1)\n" + STEP.replace(
        "RUNS", str(runs)
    )
    return _run([python, "-c", code], {})


def _run(cmd: list, extra_env: dict) -> float:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", **extra_env}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--torch-python", default=os.environ.get("AUTODIFF_TORCH_PYTHON"))
    args = parser.parse_args()
    ours = time_engine(args.runs)
    print(f"autodiff  LeNet step (batch 64, 28x28): {ours * 1000:8.1f} ms")
    if args.torch_python:
        theirs = time_torch(args.torch_python, args.runs)
        print(f"PyTorch   LeNet step (batch 64, 28x28): {theirs * 1000:8.1f} ms")
        print(f"ratio: {ours / theirs:.1f}x")
    verdict = "within" if ours < TARGET_SECONDS else "OVER"
    print(f"{verdict} the {TARGET_SECONDS:.0f} s target")
    sys.exit(0 if ours < TARGET_SECONDS else 1)


if __name__ == "__main__":
    main()
