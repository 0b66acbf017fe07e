"""The benchmark suite: one command, one table, ratios measured side by side in one run.

    python bench/run.py [--torch-python PATH] [--baseline TREE] [--rounds N] [--json]

Engine cases run in fresh subprocesses per backend (`bench/cases.py`): autodiff (with the
hand-written numpy floor timed alternately in the same process) and PyTorch (when a Python with
torch is found: this interpreter, or --torch-python). `--baseline` names another checkout of this
project (e.g. `git worktree add /tmp/before HEAD~3`) whose small MLP step is timed beside this
tree's. The cases timed against each other run in `--rounds` alternate runs of each side (3 by
default), keeping the best of each, so that a slow spell of the machine does not fall on one side
only. When the reference prototype the core's speed goals were set with is found (see
bench/cases.py), it is timed beside us on its own step and the scalar chain ("reported" rows).
The language's own overhead, parsing speed and start-up are measured here directly.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases.py"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

ENGINE_CASES = [
    "scalar_chain",
    "small_mlp",
    "large_mlp",
    "lean_mlp",
    "memory",
    "memory_per_node",
    "peak_memory",
    "deep_chain",
]


def run_cases(python: str, backend: str, names: list[str], root: Path = ROOT) -> dict[str, dict]:
    """Runs `root`'s bench/cases.py (this tree's by default) and returns its rows by case."""
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(
        [python, str(root / CASES.relative_to(ROOT)), backend, *names],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=1800,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{backend} cases failed:\n{out.stderr}")
    results = {}
    for line in out.stdout.splitlines():
        row = json.loads(line)
        results[row.pop("case")] = row
    return results


COMPARED_CASES = ["scalar_chain", "small_mlp", "lean_mlp"]
PROTOTYPE_CASES = ["scalar_chain", "lean_mlp"]  # what the reference prototype can run


def merge_best(results: dict[str, dict], again: dict[str, dict]) -> None:
    """Keeps the best of two runs of the same cases: the least time (the noise of a busy
    machine only ever adds), the larger memory figure."""
    for case, row in again.items():
        for key, value in row.items():
            old = results[case].get(key)
            if isinstance(value, float) and isinstance(old, float):
                results[case][key] = max(old, value) if "mib" in key else min(old, value)


def find_torch_python(explicit: str | None) -> str | None:
    """The interpreter to run the PyTorch side with: --torch-python, else this one or
    $AUTODIFF_TORCH_PYTHON, whichever imports torch."""
    candidates = (
        [explicit] if explicit else [sys.executable, os.environ.get("AUTODIFF_TORCH_PYTHON")]
    )
    for python in candidates:
        if python and (shutil.which(python) or Path(python).exists()):
            probe = subprocess.run(
                [python, "-c", "import torch"], capture_output=True, check=False, timeout=120
            )
            if probe.returncode == 0:
                return python
    return None


# -- 4. the language's overhead -------------------------------------------------------------------
LOOP = "y = x\nfor i in range(N):\n    y = y * 1.0001 + 0.0001\ny.backward()\n"


def script_overhead(n: int = 20_000, repeats: int = 7) -> dict:
    import gc

    import autodiff_cli.engine as torch
    from autodiff_cli import lang

    gc.set_threshold(100_000, 50, 100)
    program = lang.compile_source(LOOP, "<bench>")

    def python_loop() -> float:
        x = torch.tensor(1.0, requires_grad=True)
        start = time.perf_counter()
        y = x
        for _ in range(n):
            y = y * 1.0001 + 0.0001
        y.backward()
        return time.perf_counter() - start

    def script_loop() -> float:
        namespace = lang.new_namespace()
        namespace["x"] = torch.tensor(1.0, requires_grad=True)
        namespace["N"] = n
        start = time.perf_counter()
        program.run(namespace)
        return time.perf_counter() - start

    python_s = script_s = float("inf")
    for _ in range(repeats):  # interleaved, so both see the same machine
        python_s = min(python_s, python_loop())
        script_s = min(script_s, script_loop())
    return {"python_s": python_s, "script_s": script_s, "ratio": script_s / python_s}


# -- 5. parsing speed -----------------------------------------------------------------------------
def make_script(lines: int) -> str:
    block = [
        "def f(x, w=2.0):",
        "    y = x * w + 1",
        "    if y.sum() > 0:",
        "        return y.exp().mean()",
        "    return (y ** 2).sum()",
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
        "for i in range(10):",
        "    z = f(x, w=0.5 * i)",
        "    print(f'step {i}: {z.item():.4f}', [a for a in range(3)])",
        "    x.grad = None",
    ]
    out = []
    while len(out) < lines:
        out.extend(block)
    return "\n".join(out[:lines]) + "\n"


def parse_speed(lines: int = 10_000, repeats: int = 3) -> dict:
    from lark import Lark
    from lark.indenter import PythonIndenter

    from autodiff_cli.lang.errors import Source
    from autodiff_cli.lang.parse import parser as ours

    text = make_script(lines)
    python_lark = Lark.open_from_package(
        "lark", "python.lark", ["grammars"], parser="lalr", postlex=PythonIndenter(),
        start="file_input",
    )  # fmt: skip
    source = Source("<bench>", tuple(text.split("\n")))
    ours.parse(text, source)  # load tables once, as both parsers are reused

    def time_it(fn) -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    ours_s = lark_s = float("inf")
    for _ in range(repeats):  # interleaved, so both see the same machine
        ours_s = min(ours_s, time_it(lambda: ours.parse(text, source)))
        lark_s = min(lark_s, time_it(lambda: python_lark.parse(text)))
    return {
        "ours_lines_per_s": lines / ours_s,
        "lark_lines_per_s": lines / lark_s,
        "ratio": lark_s / ours_s,
    }


# -- 6. start-up --------------------------------------------------------------------------------------
def startup(repeats: int = 15) -> dict:
    from startup import best_of  # bench/startup.py, beside this file

    numpy_s, one_liner_s = best_of(repeats)
    return {"one_liner_s": one_liner_s, "numpy_s": numpy_s, "ratio": one_liner_s / numpy_s}


def prototype_rows(row: Callable, ours: dict, theirs: dict, proto: dict) -> None:
    """The reference prototype beside us: the scalar chain, and the small MLP step written with
    only its ops (`lean_mlp`: no biases), each against PyTorch and the numpy floor."""
    lean = ours["lean_mlp"]
    floor = lean["floor_us_per_step"]
    for who, res in (("autodiff", ours), ("prototype", proto)):
        if not res:
            continue
        us = res["lean_mlp"]["us_per_step"]
        if theirs:
            torch_us = theirs["lean_mlp"]["us_per_step"]
            row(f"small MLP, no biases (prototype's step), {who} / PyTorch",
                f"{fmt(us, 1)} vs {fmt(torch_us, 1)} µs/step", us / torch_us, "(reported)", None)  # fmt: skip
        row(f"small MLP, no biases (prototype's step), {who} / numpy floor",
            f"{fmt(us, 1)} vs {fmt(floor, 1)} µs/step", us / floor, "(reported)", None)  # fmt: skip
    if proto and theirs:
        sc = proto["scalar_chain"]["us_per_op"]
        torch_sc = theirs["scalar_chain"]["us_per_op"]
        row("scalar chain, prototype / PyTorch", f"{fmt(sc)} vs {fmt(torch_sc)} µs/op",
            sc / torch_sc, "(reported)", None)  # fmt: skip


def fmt(value: float, digits: int = 2) -> str:
    return f"{value:,.{digits}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--torch-python", help="a Python interpreter with torch installed")
    ap.add_argument("--json", action="store_true", help="print the raw results as JSON")
    ap.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="alternate runs of the timed-against-each-other cases (best of each is kept)",
    )
    ap.add_argument(
        "--baseline",
        type=Path,
        help="another checkout of this project to time the small MLP step against",
    )
    args = ap.parse_args()

    torch_python = find_torch_python(args.torch_python)
    ours = run_cases(sys.executable, "autodiff", ENGINE_CASES)
    theirs = (
        run_cases(torch_python, "torch", [*COMPARED_CASES, "memory", "peak_memory"])
        if torch_python
        else {}
    )
    before = (
        run_cases(sys.executable, "autodiff", ["small_mlp"], args.baseline) if args.baseline else {}
    )
    from cases import PROTOTYPE  # bench/cases.py, beside this file

    proto = run_cases(sys.executable, "prototype", PROTOTYPE_CASES) if PROTOTYPE.exists() else {}
    for _ in range(args.rounds - 1):  # the cases timed against each other, in alternate runs
        merge_best(ours, run_cases(sys.executable, "autodiff", COMPARED_CASES))
        if torch_python:
            merge_best(theirs, run_cases(torch_python, "torch", COMPARED_CASES))
        if args.baseline:
            merge_best(before, run_cases(sys.executable, "autodiff", ["small_mlp"], args.baseline))
        if proto:
            merge_best(proto, run_cases(sys.executable, "prototype", PROTOTYPE_CASES))
    floor = {
        name: {"us_per_step": ours[name]["floor_us_per_step"]}
        for name in ("small_mlp", "large_mlp")
    }
    overhead = script_overhead()
    parsing = parse_speed()
    start = startup()

    rows = []

    def row(case: str, measured: str, ratio: float | None, goal: str, ok: bool | None) -> None:
        verdict = "n/a" if ok is None else ("ok" if ok else "MISSED")
        rows.append((case, measured, "-" if ratio is None else fmt(ratio), goal, verdict))

    sc = ours["scalar_chain"]["us_per_op"]
    if theirs:
        ratio = sc / theirs["scalar_chain"]["us_per_op"]
        row("scalar chain, autodiff / PyTorch",
            f"{fmt(sc)} vs {fmt(theirs['scalar_chain']['us_per_op'])} µs/op", ratio, "≤ 0.2",
            ratio <= 0.2)  # fmt: skip
    else:
        row("scalar chain, autodiff / PyTorch", f"{fmt(sc)} µs/op", None, "≤ 0.2", None)
    sm = ours["small_mlp"]["us_per_step"]
    if theirs:
        ratio = sm / theirs["small_mlp"]["us_per_step"]
        row("small MLP, autodiff / PyTorch",
            f"{fmt(sm, 1)} vs {fmt(theirs['small_mlp']['us_per_step'], 1)} µs/step", ratio,
            "≤ 0.5", ratio <= 0.5)  # fmt: skip
    else:
        row("small MLP, autodiff / PyTorch", f"{fmt(sm, 1)} µs/step", None, "≤ 0.5", None)
    ratio = sm / floor["small_mlp"]["us_per_step"]
    row("small MLP, autodiff / numpy floor",
        f"{fmt(sm, 1)} vs {fmt(floor['small_mlp']['us_per_step'], 1)} µs/step", ratio, "≤ 2.0",
        ratio <= 2.0)  # fmt: skip
    if before:
        old = before["small_mlp"]["us_per_step"]
        row(f"small MLP, autodiff / baseline ({args.baseline})",
            f"{fmt(sm, 1)} vs {fmt(old, 1)} µs/step", sm / old, "(reported)", None)  # fmt: skip
    prototype_rows(row, ours, theirs, proto)
    lm = ours["large_mlp"]["us_per_step"]
    ratio = lm / floor["large_mlp"]["us_per_step"]
    row("large MLP, autodiff / numpy floor",
        f"{fmt(lm / 1000, 1)} vs {fmt(floor['large_mlp']['us_per_step'] / 1000, 1)} ms/step",
        ratio, "≤ 1.15", ratio <= 1.15)  # fmt: skip
    row("script loop, `autodiff run` / engine from Python",
        f"{fmt(overhead['script_s'] * 1e3, 1)} vs {fmt(overhead['python_s'] * 1e3, 1)} ms",
        overhead["ratio"], "≤ 1.3", overhead["ratio"] <= 1.3)  # fmt: skip
    row("one-liner start-up / `import numpy`",
        f"{fmt(start['one_liner_s'] * 1e3, 0)} vs {fmt(start['numpy_s'] * 1e3, 0)} ms",
        start["ratio"], "≤ 1.6", start["ratio"] <= 1.6)  # fmt: skip
    row("parsing speed / Lark's python.lark",
        f"{fmt(parsing['ours_lines_per_s'], 0)} vs {fmt(parsing['lark_lines_per_s'], 0)} lines/s",
        parsing["ratio"], "≥ 1.5", parsing["ratio"] >= 1.5)  # fmt: skip
    per_node = ours["memory_per_node"]["bytes_per_node"]
    row("memory per graph node (scalar chain)", f"{fmt(per_node, 0)} bytes", None, "≤ 200",
        per_node <= 200)  # fmt: skip
    growth = ours["memory"]["growth_mib"]
    row("memory growth over 20 passes", f"{fmt(growth, 3)} MiB", None, "< 2 MiB", growth < 2)
    peak = ours["peak_memory"]["peak_rss_mib"]
    if theirs:
        row("peak memory of a graph, autodiff / PyTorch",
            f"{fmt(peak, 1)} vs {fmt(theirs['peak_memory']['peak_rss_mib'], 1)} MiB",
            peak / max(theirs["peak_memory"]["peak_rss_mib"], 1e-9), "(reported)", None)  # fmt: skip
    deep = ours["deep_chain"]
    row("200,000-node chain", f"{fmt(deep['seconds'], 2)} s", None, "works", deep["ok"])

    widths = [max(len(r[i]) for r in rows + [_HEADER]) for i in range(5)]
    for r in [_HEADER, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(r, widths)))
    if not torch_python:
        print("\n(PyTorch not found: pass --torch-python PATH to compare against it.)")
    if args.json:
        print(json.dumps({"autodiff": ours, "torch": theirs, "numpy": floor, "baseline": before,
                          "prototype": proto,
                          "script": overhead, "parsing": parsing, "startup": start}, indent=2))  # fmt: skip
    return 0


_HEADER = ("case", "measured", "ratio", "goal", "result")

if __name__ == "__main__":
    sys.exit(main())
