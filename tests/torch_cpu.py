"""Which CPU kernels the oracle PyTorch runs here.

The engine's bit-for-bit emulations (small float32 matrix products, float32 exp/tanh) were
measured against PyTorch 2.13 on an AVX2 CPU. On AVX-512 CPUs PyTorch's MKL and SLEEF kernels
take other paths: small matrix products accumulate with fused multiply-adds, in an order that
depends on the operands' memory layout, and a few float32 tanh values round differently. The
torch comparisons check the AVX2 kernels bit for bit and the others to within rounding.
"""

from __future__ import annotations

from typing import Any


def torch_runs_avx512(torch: Any) -> bool:
    return torch.backends.cpu.get_cpu_capability().upper().startswith("AVX512")
