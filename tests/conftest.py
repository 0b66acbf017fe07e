"""Fixtures shared by the command-line tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def script(tmp_path: Path) -> Callable[[str, str], str]:
    """`script(name, source)` writes a script into a temporary folder and returns its path."""

    def write(name: str, source: str) -> str:
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        return str(path)

    return write
