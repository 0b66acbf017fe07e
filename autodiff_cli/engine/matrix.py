"""Matrix functions at the top level of torch: trace, diag, diagonal, tril, triu, ..."""

from __future__ import annotations

__all__: list[str] = []
