"""`torch.linalg`: norm, vector_norm, matrix_norm, det, inv."""

from __future__ import annotations
