"""Which CPU kernels the oracle PyTorch runs here.

PyTorch's results depend on the CPU's kernels (AVX2 or AVX-512, MKL's paths), which a few goldens
show: a float64 value that cancels to exactly 0 with one set of kernels leaves a residual with
the other.
"""

from __future__ import annotations

from typing import Any


def torch_runs_avx512(torch: Any) -> bool:
    return torch.backends.cpu.get_cpu_capability().upper().startswith("AVX512")
