"""Which CPU kernels the oracle PyTorch runs here.

PyTorch's results depend on the CPU's kernels (AVX2 or AVX-512, MKL's paths), which a few goldens
show: a float64 value that cancels to exactly 0 with one set of kernels leaves a residual with
the other.
"""

from __future__ import annotations

from typing import Any


def torch_runs_avx512(torch: Any) -> bool:
    return torch.backends.cpu.get_cpu_capability().upper().startswith("AVX512")


def torch_fuses_multiply_add(torch: Any) -> bool:
    """Whether PyTorch runs its vectorised kernels, compiled with fused multiply-adds (AVX2,
    AVX-512): tanh's backward then rounds `1 - y²` once. x86-64 CPUs without AVX2 run the
    DEFAULT kernels, which round twice."""
    import platform

    default = torch.backends.cpu.get_cpu_capability().upper() == "DEFAULT"
    return not (default and platform.machine().lower() in ("x86_64", "amd64"))
