"""`autodiff run notebook.ipynb`, run as a user runs it (a subprocess): the tutorial notebook
against what PyTorch's own kernel showed (tests/notebooks/*.golden.json, recorded by
tests/record_notebook_goldens.py), magics, errors located in cells, `--json` per cell. Needs no
Jupyter package: the base install reads notebooks with json."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from golden_compare import mismatch_report

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "tests" / "notebooks"
ADDRESS = re.compile(r"0x[0-9a-f]+")


def autodiff(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment["PYTHONPATH"] = str(REPO)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=environment,
        timeout=120,
    )


def notebook(tmp_path: Path, *cells: tuple[str, str], name: str = "nb.ipynb") -> str:
    """A notebook file of (cell_type, source) cells, written as nbformat 4 JSON."""
    document = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
            | ({"outputs": [], "execution_count": None} if kind == "code" else {})
            for kind, source in cells
        ],
    }
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def shown(cell: dict) -> str:
    """What a notebook shows for a cell: its printed output, then its value."""
    text = cell["stdout"] + ("" if cell["result"] is None else cell["result"] + "\n")
    return ADDRESS.sub("0xADDR", text)


@pytest.mark.parametrize("golden", sorted(NOTEBOOKS.glob("*.golden.json")), ids=lambda p: p.stem)
def test_tutorial_notebook_shows_what_pytorch_showed(golden: Path):
    path = golden.with_name(golden.name.replace(".golden.json", ".ipynb"))
    expected = json.loads(golden.read_text())
    done = autodiff("run", "--json", str(path.relative_to(REPO)))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    cells, summary = lines[:-1], lines[-1]
    assert [cell["cell"] for cell in cells] == [cell["cell"] for cell in expected]
    for want, got in zip(expected, cells):
        assert got["ok"] and want["error"] is None
        report = mismatch_report(shown(want), shown(got))
        assert report is None, f"cell {want['cell']}:\n{report}"
    assert summary["ok"] is True and summary["path"].endswith(".ipynb")
    # without --json: the same text, cell after cell, as one script prints it
    plain = autodiff("run", str(path.relative_to(REPO)))
    assert plain.returncode == 0, plain.stderr
    assert (
        mismatch_report("".join(map(shown, expected)), ADDRESS.sub("0xADDR", plain.stdout)) is None
    )


def test_values_echo_like_a_notebook_and_markdown_is_skipped(tmp_path: Path):
    path = notebook(
        tmp_path,
        ("markdown", "# x = 1/0 is only text"),
        ("code", "x = torch.ones(2, requires_grad=True)\ny = (x * 3).sum()\ny"),
        ("code", "print('printed first')\ny.backward()\nx.grad"),
        ("code", "x.grad;  # a trailing semicolon hides the value"),
        ("code", "None"),
    )
    done = autodiff("run", path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("tensor(6., grad_fn=<SumBackward0>)\nprinted first\ntensor([3., 3.])\n")
    assert done.stderr == ""


def test_error_is_located_in_its_cell_and_stops_the_run(tmp_path: Path):
    path = notebook(
        tmp_path,
        ("code", "a = torch.tensor([1., 2.])"),
        ("markdown", "text"),
        ("code", "b = a * 2\nb.backward()"),
        ("code", "print('never runs')"),
    )
    done = autodiff("run", path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"{path} cell 3, line 2: error\n    b.backward()\n")
    assert "RuntimeError: element 0 of tensors does not require grad" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_error_in_a_function_names_the_cell_that_defined_it(tmp_path: Path):
    path = notebook(tmp_path, ("code", "def f(v):\n    return v / undefined"), ("code", "f(1)"))
    done = autodiff("run", path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path} cell 1, line 2: error\n")


def test_magics_and_shell_lines_are_skipped_with_a_note(tmp_path: Path):
    path = notebook(
        tmp_path,
        ("code", "%matplotlib inline\n!pip install torch\nx = torch.tensor(2.)\nx * 3"),
        ("code", "%%time\nx + 1"),
    )
    done = autodiff("run", path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "tensor(6.)\ntensor(3.)\n"
    assert done.stderr == (
        f"{path} cell 1, line 1: note: skipped the magic %matplotlib inline\n"
        f"{path} cell 1, line 2: note: skipped the shell line !pip install torch\n"
        f"{path} cell 2, line 1: note: skipped the cell magic %%time (the cell runs)\n"
    )


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("%time x = torch.ones(2)", "the magic %time needs IPython"),
        ("files = !ls", "assigns the output of IPython syntax"),
        ("%%capture out\nprint(1)", "the cell magic %%capture needs IPython"),
    ],
)
def test_magics_that_change_the_result_are_refused(tmp_path: Path, source: str, why: str):
    path = notebook(tmp_path, ("code", "print('before')"), ("code", source))
    done = autodiff("run", path)
    assert done.returncode == 1
    assert done.stdout == "before\n"
    assert done.stderr.startswith(f"{path} cell 2, line 1: error\nSyntaxError: ")
    assert why in done.stderr


def test_json_reports_each_cell(tmp_path: Path):
    path = notebook(
        tmp_path,
        ("code", "print('hi')\n1 + 1"),
        ("markdown", "skip"),
        ("code", "1 / 0"),
    )
    done = autodiff("run", "--json", path)
    assert done.returncode == 1
    first, second, summary = (json.loads(line) for line in done.stdout.splitlines())
    assert first["cell"] == 1 and first["ok"] and first["stdout"] == "hi\n"
    assert first["result"] == "2" and first["error"] is None
    assert second["cell"] == 3 and not second["ok"] and second["result"] is None
    assert second["error"].startswith(f"{path} cell 3, line 1: error\n")
    assert "ZeroDivisionError: division by zero" in second["error"]
    assert summary["path"] == path and summary["ok"] is False
    assert summary["stdout"] == "hi\n2\n" and "ZeroDivisionError" in summary["error"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "NotebookError: not a notebook: invalid JSON"),
        ('{"worksheets": []}', "NotebookError: an nbformat 3 notebook"),
        ('{"cells": [{"source": "x"}]}', "NotebookError: cell 1 has no cell_type"),
    ],
)
def test_a_file_that_is_not_a_notebook_is_one_clear_error(
    tmp_path: Path, content: str, message: str
):
    path = tmp_path / "bad.ipynb"
    path.write_text(content)
    done = autodiff("run", str(path))
    assert done.returncode == 1
    assert done.stderr == f"{path}: error\n{message}" + done.stderr.partition(message)[2]
    assert "Traceback" not in done.stderr


def test_notebooks_run_in_the_jail(tmp_path: Path):
    """A cell cannot read files (the jail's empty root), as a script cannot."""
    path = notebook(tmp_path, ("code", "open('/etc/passwd').read()"))
    done = autodiff("run", path)
    assert done.returncode == 1
    assert f"{path} cell 1, line 1: error" in done.stderr
    assert "root:" not in done.stdout
