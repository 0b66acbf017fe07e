"""Record the conformance goldens by running each script under real PyTorch.

Usage: python tests/record_goldens.py [--python PATH] [--check] [NAME_OR_GLOB ...]

Each `tests/conformance/NNN_name.py` is run with the given interpreter (default: the one named
by AUTODIFF_TORCH_PYTHON, else this one) from the script's directory; its stdout becomes `NNN_name.out`
(stderr is ignored). A script that PyTorch itself cannot run is a bug in the script, so a
non-zero exit status is reported and no golden is written for it. `--check` compares
instead of writing and exits non-zero when a golden is stale.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

CONFORMANCE_DIR = Path(__file__).resolve().parent / "conformance"
DEFAULT_PYTHON = os.environ.get("AUTODIFF_TORCH_PYTHON") or sys.executable
TIMEOUT_SECONDS = 120
ADDRESS = re.compile(r"0x[0-9a-f]+")


def normalise(output: str) -> str:
    """Replace object addresses (which differ on every run) by a placeholder."""
    return ADDRESS.sub("0xADDR", output)


def script_paths(patterns: list[str]) -> list[Path]:
    """All conformance scripts, or those whose file name matches one of `patterns`."""
    scripts = sorted(CONFORMANCE_DIR.glob("*.py"))
    if not patterns:
        return scripts
    return [
        path
        for path in scripts
        if any(fnmatch.fnmatch(path.name, p) or path.stem.startswith(p) for p in patterns)
    ]


def run_script(python: str, script: Path) -> subprocess.CompletedProcess[str]:
    """Run one script the way the goldens are defined: cwd = its directory, stdout captured."""
    return subprocess.run(
        [python, script.name],
        cwd=script.parent,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        env={
            "PYTHONHASHSEED": "0",
            "PYTHONIOENCODING": "utf-8",
            "PATH": "/usr/bin:/bin",
            "OMP_NUM_THREADS": "1",  # with two threads PyTorch itself prints other last digits
        },
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="interpreter with torch")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("patterns", nargs="*", help="script names, prefixes or globs")
    args = parser.parse_args(argv)

    failures = 0
    for script in script_paths(args.patterns):
        result = run_script(args.python, script)
        golden = script.with_suffix(".out")
        if result.returncode != 0:
            failures += 1
            print(f"FAILED  {script.name} (exit {result.returncode})")
            print(result.stderr.rstrip())
            continue
        if args.check:
            current = golden.read_text(encoding="utf-8") if golden.exists() else None
            if current is None or normalise(current) != normalise(result.stdout):
                failures += 1
                print(f"STALE   {golden.name}")
            continue
        golden.write_text(result.stdout, encoding="utf-8")
        print(f"wrote   {golden.name} ({len(result.stdout.splitlines())} lines)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
