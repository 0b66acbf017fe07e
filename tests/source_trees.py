"""Syntax trees of source files for the tests that read the code (import graphs, code shape,
state writes, the suite's layout): each package module parsed once per test module.

Parsing runs with the cyclic garbage collector paused: the package's modules make half a million
AST nodes (which hold no reference cycles), and the collector's passes over them while they are
being made cost a sixth of the parse at the suite's thresholds (conftest), more than the parse at
Python's defaults. For the same reason the shared trees are dropped when the test module that read
them ends (`forget`): kept, every later full collection of the test process would walk them again
(pytest's own at the end of the session took 0.6 s).
"""

from __future__ import annotations

import ast
import functools
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest


def parse(path: Path, text: str | None = None) -> ast.Module:
    """The syntax tree of the file at `path` (of `text`, its contents, when given), read now."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    collecting = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(text, str(path))
    finally:
        if collecting:
            gc.enable()


@functools.cache
def syntax_tree(path: Path) -> ast.Module:
    """The syntax tree of the file at `path`, parsed on first use and shared until `forget`:
    callers only read it."""
    return parse(path)


def nodes_of(tree: ast.AST) -> list[ast.AST]:
    """Every node of `tree`, in `ast.walk`'s order (breadth first), as a list: twice as fast as
    `ast.walk`, whose generators the scans of the package spent most of their time in."""
    found = [tree]
    for node in found:  # (the list grows while it is read)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                found.append(value)
            elif isinstance(value, list):
                found.extend([item for item in value if isinstance(item, ast.AST)])
    return found


def forget() -> None:
    """Drop the shared trees."""
    syntax_tree.cache_clear()


@pytest.fixture(autouse=True, scope="module")
def trees_dropped() -> Iterator[None]:
    """In a test module that imports it (autouse there): the shared trees go when its tests end."""
    yield
    forget()
