"""Record what PyTorch's own kernel shows for each notebook in tests/notebooks/.

Usage: AUTODIFF_TORCH_PYTHON=/work/torchvenv/bin/python python tests/record_notebook_goldens.py
       [--check] [NAME ...]

Each `tests/notebooks/NAME.ipynb` runs under the python3 kernel (ipykernel) of the interpreter
that has torch (it needs ipykernel and nbclient), driven by nbclient; each code cell's printed
output (stdout streams), displayed value (execute_result text/plain) and error name become
`NAME.golden.json`: a list of {"cell", "stdout", "result", "error"} (`cell`: 1-based position
among all cells, as `autodiff run` names cells). Object addresses are normalised. `--check`
compares instead of writing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
ADDRESS = re.compile(r"0x[0-9a-f]+")
TIMEOUT_SECONDS = 300
# Run in the interpreter that has torch: runs the notebook, prints the cells' outputs as JSON.
_RECORD = r"""
import json, sys
import nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, kernel_name="python3", timeout=120, allow_errors=True).execute()
cells = []
for number, cell in enumerate(nb.cells, 1):
    if cell.cell_type != "code":
        continue
    out = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")
    results = [o.data["text/plain"] for o in cell.outputs if o.output_type == "execute_result"]
    errors = [o.ename for o in cell.outputs if o.output_type == "error"]
    cells.append({"cell": number, "stdout": out, "result": results[0] if results else None,
                  "error": errors[0] if errors else None})
json.dump(cells, sys.stdout, indent=1)
"""


def normalise(text: str | None) -> str | None:
    return None if text is None else ADDRESS.sub("0xADDR", text)


def record(python: str, notebook: Path) -> list[dict]:
    done = subprocess.run(
        [python, "-c", _RECORD, str(notebook)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        env={**os.environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
    )
    if done.returncode != 0:
        raise SystemExit(f"{notebook.name}: the recording failed:\n{done.stderr}")
    cells = json.loads(done.stdout)
    for cell in cells:
        cell["stdout"], cell["result"] = normalise(cell["stdout"]), normalise(cell["result"])
    return cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=os.environ.get("AUTODIFF_TORCH_PYTHON", sys.executable))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("names", nargs="*")
    options = parser.parse_args()
    stale = 0
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        if options.names and notebook.stem not in options.names:
            continue
        golden = notebook.with_suffix(".golden.json")
        text = json.dumps(record(options.python, notebook), indent=1) + "\n"
        if options.check:
            if not golden.exists() or golden.read_text() != text:
                print(f"stale: {golden.name}")
                stale += 1
        else:
            golden.write_text(text)
            print(f"wrote {golden.name}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
