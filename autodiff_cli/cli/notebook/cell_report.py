"""`autodiff run notebook.ipynb --json`, in the parent: the cell records the child wrote
(`run_notebook`) are checked field by field (the child is untrusted) and written again, one
JSON line per cell, then the notebook's own line as for any script, its `stdout` being what the
run prints without `--json` (each cell's output, then its value)."""

from __future__ import annotations

import json
import sys
from typing import Any

# One cell's `--json` record: field -> its type (None allowed for `result`).
CELL_FIELDS = {"path": str, "cell": int, "ok": bool, "stdout": str, "result": str, "error": str}

INVALID = "the notebook's process wrote a cell report that is not valid; it is left out\n"


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value or ""


def checked_record(line: str, path: str) -> dict[str, Any] | None:
    """The record if it is a JSON object with exactly the expected fields and types."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if type(record) is not dict or set(record) != {*CELL_FIELDS, "seconds"}:
        return None
    for name, kind in CELL_FIELDS.items():
        value = record[name]
        if type(value) is not kind and not (value is None and name in ("result", "error")):
            return None
    if type(record["seconds"]) not in (int, float) or record["path"] != path:
        return None
    return record


def write_notebook_json(outcome: Any) -> None:
    """The cell lines, then the notebook's line (path, ok, stdout, error, seconds)."""
    records, invalid = [], False
    for line in _text(outcome.stdout).splitlines():
        record = checked_record(line, outcome.path)
        if record is None:
            invalid = True
        else:
            records.append(record)
            sys.stdout.write(json.dumps(record) + "\n")
    printed = "".join(
        record["stdout"] + ("" if record["result"] is None else record["result"] + "\n")
        for record in records
    )
    errors = "".join(record["error"] or "" for record in records) + _text(outcome.error)
    if invalid:
        errors += f"{outcome.path}: error: {INVALID}"
    if outcome.problem:
        errors += outcome.problem
    line = {
        "path": outcome.path,
        "ok": outcome.ok and not invalid,
        "stdout": printed,
        "error": errors or None,
        "seconds": round(outcome.seconds, 6),
    }
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()
