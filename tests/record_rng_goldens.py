"""Record PyTorch's random stream into ``tests/rng_goldens.json`` (needs torch).

Usage: ``/work/torchenv/bin/python tests/record_rng_goldens.py`` (``--live SEEDS SIZES``: the
live test's cases as JSON on stdout instead).

Each case of ``tests/rng_cases.py`` runs with PyTorch; its summary (digest, dtypes, shapes,
values or a sample of them) is what ``tests/test_rng.py`` checks the engine against.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import rng_cases  # noqa: E402

GOLDENS_PATH = Path(__file__).with_name("rng_goldens.json")


def live(seeds: list[int], sizes: list[int]) -> None:
    """Summaries of rng_cases.live_cases as JSON on stdout (for tests/test_rng.py)."""
    import torch

    out = {}
    for name, case, exact in rng_cases.live_cases(seeds, sizes):
        out[name] = rng_cases.summary(rng_cases.to_arrays(case(torch)), exact)
    print(json.dumps(out))


def main() -> None:
    import torch

    if sys.argv[1:2] == ["--live"]:
        live(json.loads(sys.argv[2]), json.loads(sys.argv[3]))
        return
    torch.set_num_threads(1)
    goldens = {}
    for name, case, exact in rng_cases.all_cases():
        entry = rng_cases.summary(rng_cases.to_arrays(case(torch)), exact)
        entry["exact"] = exact
        goldens[name] = entry
    GOLDENS_PATH.write_text(json.dumps(goldens, separators=(",", ":")) + "\n")
    print(f"{len(goldens)} cases -> {GOLDENS_PATH}")


if __name__ == "__main__":
    main()
