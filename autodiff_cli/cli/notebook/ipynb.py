"""Reading a `.ipynb` file: the nbformat-4 JSON structure read with `json` (the base install
needs no Jupyter package to run a notebook). Only what running needs is checked: cells, their
type and source; outputs and metadata are ignored."""

from __future__ import annotations

import json
from dataclasses import dataclass

NOTEBOOK_SUFFIX = ".ipynb"


class NotebookError(Exception):
    """The file is not a notebook this reader understands: reported as a located error."""


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based position among all the notebook's cells (as an editor counts them)
    kind: str  # "code", "markdown" or "raw"
    source: str


def is_notebook(path: str) -> bool:
    return path.lower().endswith(NOTEBOOK_SUFFIX)


def read_cells(data: str | bytes) -> list[Cell]:
    """The cells of an nbformat-4 notebook (v3's `worksheets` are refused with a hint)."""
    try:
        document = json.loads(data)
    except UnicodeDecodeError:
        raise NotebookError("not a notebook: the file is not UTF-8 text") from None
    except ValueError as error:
        raise NotebookError(f"not a notebook: invalid JSON ({error})") from None
    if type(document) is not dict or "cells" not in document:
        if type(document) is dict and "worksheets" in document:
            raise NotebookError(
                "an nbformat 3 notebook: convert it with `jupyter nbconvert --to notebook`"
            )
        raise NotebookError("not a notebook: no 'cells' list at its top level")
    cells = document["cells"]
    if type(cells) is not list:
        raise NotebookError("not a notebook: 'cells' is not a list")
    return [_cell(number, cell) for number, cell in enumerate(cells, 1)]


def _cell(number: int, cell: object) -> Cell:
    if type(cell) is not dict or type(cell.get("cell_type")) is not str:
        raise NotebookError(f"cell {number} has no cell_type")
    source = cell.get("source", "")
    if type(source) is list and all(type(part) is str for part in source):
        source = "".join(source)
    if type(source) is not str:
        raise NotebookError(f"cell {number}'s source is not text")
    return Cell(number, cell["cell_type"], source)
