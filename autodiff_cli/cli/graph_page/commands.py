"""The page asked for by `grad --html FILE` and the REPL's `:graph NAME html FILE`: its data
made where the expression ran (a locked-down child, when processes can be forked), the page
laid out and written out here."""

from __future__ import annotations

import json  # at the top: the child that makes the data cannot import anything new
import sys
from typing import Any

import autodiff_cli.cli.graph_page.data  # noqa: F401 - the child cannot import it later
from autodiff_cli.cli.graph.build import graph_of_checked
from autodiff_cli.cli.graph.export import RenderError
from autodiff_cli.cli.graph_page.data import page_data
from autodiff_cli.cli.graph_page.page import render_page, render_page_json
from autodiff_cli.cli.jail.isolation import LimitError, run_child
from autodiff_cli.cli.output.output_text import write_output
from autodiff_cli.cli.output.terminal import print_error

# the page's API for the commands, which load this module only when a page is asked for
__all__ = [
    "page_data",
    "page_json",
    "render_page",
    "render_page_json",
    "write_grad_page",
    "write_page",
]


def page_json(value: Any, names: dict[str, Any], label: str, *, seed: Any = None) -> str:
    """The page data of a tensor as JSON (what a child hands back)."""
    graph_of_checked(value, label)
    return json.dumps(page_data(value, names, label, seed=seed), allow_nan=False)


def write_page(data_json: str | bytes, path: str) -> str | None:
    """Lay out and write the page of a child's JSON; the error message, or None when written."""
    try:
        page = render_page_json(data_json)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except RenderError as error:
        return str(error)
    except OSError as error:
        return f"cannot write {path}: {error.strerror}"
    return None


def write_grad_page(subject: Any, path: str, limits: Any, *, isolated: bool) -> int:
    """Make the page of `grad --html FILE`: 0 when written, 1 with the reason on stderr.
    `subject()` runs the expression and gives (result, namespace, seed)."""

    def grad_page_json() -> str:
        result, names, seed = subject()
        return page_json(result, names, "result", seed=seed)

    def fail(message: str) -> int:
        print_error(f"autodiff grad: error: --html: {message}")
        return 1

    if not isolated:
        try:
            text = grad_page_json()
        except Exception as error:  # the report above said what failed
            return fail(f"{type(error).__name__}: {error}")
        problem = write_page(text, path)
        return fail(problem) if problem else 0

    def work() -> int:
        try:
            sys.stdout.write(grad_page_json())
        except Exception as error:
            sys.stderr.write(f"{type(error).__name__}: {error}\n")
            return 1
        return 0

    try:
        result = run_child(work, limits, stream=False)
    except LimitError as error:
        return fail(str(error))
    if result.problem is not None:
        return fail(f"the expression was {result.problem}")
    if result.status != 0:
        write_output(sys.stderr, result.stderr)  # the child's words, made safe for a terminal
        return fail("the page's data could not be made")
    problem = write_page(result.stdout, path)
    return fail(problem) if problem else 0
