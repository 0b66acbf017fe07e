"""Indexing ops beyond `x[i]`: masked_fill, index_select, gather, scatter_add, ..."""

from __future__ import annotations

__all__: list[str] = []
