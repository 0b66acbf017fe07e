"""The one list of imports deferred to first use, each with the reason it is deferred.

Every other import in the package sits at the top of its module. A module lands here only when
loading it eagerly would cost the one-liner's start-up (`autodiff grad "x**2" --at x=3`, measured
by `bench/startup.py`), would run before the start-up steps that must come first (the clean
start's exec, the BLAS thread limit), or pulls in a heavy optional library (SymPy, Jupyter, Rich,
the browser page) that most runs never use. Callers write
`lazy_imports.load("autodiff_cli.cli.grad.explain")`; a name missing from `DEFERRED` is an error,
so the list stays the single, reviewed place (tests/test_code_shape.py checks every call).

The command line's shape follows from it: `cli/app.py` imports only the clean start, then loads
the one-liner's path (`fast_path`) or the Typer app (`commands`), which dispatches to each
command's package (`run`, `grad`, `graph`, `repl`, ...) through an entry here; each command's
package imports what it needs at module level, but for its optional features below.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_ONE_LINER = "not loaded by the one-liner"

DEFERRED: dict[str, str] = {
    # ---- start-up order (cli/app.py, cli/numpy_docs.py)
    "autodiff_cli.cli.commands": f"the Typer app (Typer and Click, ~30 ms): {_ONE_LINER}",
    "numpy": "imported by numpy_docs with its docstring modules stood in for (~4 ms saved)",
    # ---- the commands, dispatched by cli/commands.py: each loads only what it runs
    "autodiff_cli.cli.run.command": "`autodiff run`",
    "autodiff_cli.cli.grad.command": "`autodiff grad` (the one-liner through `fast_path`): it "
    "loads numpy and the engine, so only after the clean start's exec and the BLAS thread "
    "limit, and after the choice of a lean engine",
    "autodiff_cli.cli.graph.command": "`autodiff graph`",
    "autodiff_cli.cli.repl.main": "`autodiff repl`",
    "autodiff_cli.cli.repl.terminal": "the REPL on a terminal (prompt_toolkit, ~60 ms): not for "
    "piped input, nor in a jailed child",
    "autodiff_cli.cli.notebook.kernelspec": "`autodiff kernel install` (Jupyter's packages)",
    "autodiff_cli.cli.notebook.run_notebook": "`autodiff run NOTEBOOK.ipynb`: the REPL's "
    "session machinery, for notebooks only",
    "autodiff_cli.cli.notebook.autodiff_kernel": "the Jupyter kernel (ipykernel, the engine): "
    "after the kernel process's clean start and BLAS thread limit",
    "autodiff_cli.cli.notebook.cell_report": "`autodiff run --json NOTEBOOK.ipynb`'s cells",
    "autodiff_cli.cli.jail.doctor": "`autodiff doctor` (the attack battery)",
    # ---- optional features of a command
    "autodiff_cli.cli.grad.explain": f"`--explain` (and the graph page's steps): {_ONE_LINER}",
    "autodiff_cli.cli.grad.fdcheck": f"`--check`: {_ONE_LINER}",
    "autodiff_cli.cli.grad.math_input": "grad's math form (2x, x², √x): only an expression that "
    "looks like math pays for the rewrite (`grad.math_gate` decides)",
    "autodiff_cli.cli.graph_page.commands": "the browser page (`--html`, `:graph NAME html`)",
    "autodiff_cli.cli.output.styled": "Rich (~25 ms): only when the output is styled (a "
    "terminal that takes colour)",
    "rich.progress": "`autodiff run`'s progress bar, on a terminal only",
    "autodiff_cli.cli.output.json_text": f"`--json` output (json): {_ONE_LINER} without `--json`",
    "resource": "rlimits: set by the child's lock-down, read by the parent only after a child "
    f"ran out of memory; {_ONE_LINER}'s parent",
    # SymPy (~0.3 s to import): its half of the formulas loads only when a formula is asked for
    # (`--formula`, `:formula`); the SymPy-free half (`terms`) runs in the jailed child
    "autodiff_cli.cli.formulas.grad_formulas": "`grad --formula`: the graph read as terms (in the "
    "child, SymPy-free) and its formulas section",
    "autodiff_cli.cli.formulas.warm": "SymPy and the formulas' SymPy half, before a child forks",
    "autodiff_cli.cli.formulas.report": "the formulas section (SymPy)",
    "autodiff_cli.cli.formulas.symbolic": "a formula's terms checked as SymPy expressions",
    "autodiff_cli.cli.formulas.chain_rule": "`--explain --formula`'s chain rule (SymPy)",
    # ---- the translations (autodiff_cli/i18n.py)
    "gettext": f"a catalogue, for a language other than English: {_ONE_LINER} in English",
    "pathlib": "the catalogues' files, when they are built (`python -m autodiff_cli.i18n`)",
    # ---- loaded ahead for a jailed child (cli/jail/warm_up.py) only when its sources may use
    # them: a locked-down child cannot import, and the one-liner does not pay for them
    "numpy.random": "random numbers (`rand`, `seed`, `nn` initialisation...)",
    # ---- the engine's torch.* functions that live in its lazily loaded submodules
    "autodiff_cli.engine.nn.functional": "torch.softmax & co: torch.nn (30 modules) on first use",
    "autodiff_cli.engine.nn.functional_ops": "torch.xlogy: loads torch.nn on first use",
    "autodiff_cli.engine.ops.batch_norm": "torch.batch_norm: rarely called from a one-liner",
    "autodiff_cli.engine.serialization": "torch.save/load: pickle machinery, scripts seldom save",
    "autodiff_cli.engine.func": "torch.vmap: torch.func's transforms load on first use",
    "autodiff_cli.engine.linalg": "nn.utils' norms: torch.linalg loads on first use",
    # -- the language (autodiff_cli.lang): the engine loads when a script first imports torch,
    # so that scripts without torch, the REPL's prompt and the CLI's parent process never pay
    # for it (`import autodiff_cli.engine` is most of the one-liner's import time).
    "autodiff_cli.engine": "lang/pylib/modules/copy_module.py: `copy` works without torch",
    "autodiff_cli.engine.core.modes": "lang/runtime/provenance.py: graph commands turn "
    "recording on before the script imports torch",
    "autodiff_cli.engine.core.arguments": "lang/sandbox/call_results.py: explains an engine "
    "call's argument error (only once the engine is loaded)",
    "autodiff_cli.engine.core.tensor": "lang/sandbox/engine_exports.py: op machinery, "
    "looked up when a script's torch module is built",
    "autodiff_cli.engine.core.graph": "lang/sandbox/engine_exports.py: as engine.core.tensor",
    "autodiff_cli.engine.core.optable": "lang/sandbox/engine_exports.py: as engine.core.tensor",
    "autodiff_cli.engine.core.formula_backends": "lang/sandbox/engine_exports.py: as "
    "engine.core.tensor",
    "autodiff_cli.engine.core.anomaly": "lang/runtime/script_stack.py: the script's anomaly "
    "switches (traces naming script lines), made when a script first reaches them",
    "autodiff_cli.lang.pylib.numpy_module": "a script's `import numpy`: the whole vetted "
    "subset and its wrappers (preloaded in jailed children, not in the one-liner)",
    "autodiff_cli.lang.sandbox.numpy_types": "a tensor's `.numpy()` in a script: the array "
    "wrapper and numpy's submodules it uses (preloaded in jailed children)",
    "autodiff_cli.lang.parse.table_builder": "imports Lark; needed only in a checkout whose "
    "grammar was edited since the shipped tables were built",
}


def load(module: str) -> ModuleType:
    """Import a module named in `DEFERRED` (already-loaded modules cost one dict lookup)."""
    if module not in DEFERRED:
        raise KeyError(f"{module} is not in autodiff_cli.lazy_imports.DEFERRED")
    return importlib.import_module(module)
