"""The one list of imports deferred to first use, each with the reason it is deferred.

Every other import in the package sits at the top of its module. A module lands here only when
loading it eagerly would cost the one-liner's start-up (`autodiff grad "x**2" --at x=3`, measured
by `bench/startup.py`; also `autodiff run` of a small script and the REPL's piped start), would
run before the start-up steps that must come first (the clean start's exec, the BLAS thread
limit), or pulls in a heavy optional library (SymPy, Jupyter, Rich, the browser page) that most
runs never use. Callers write `lazy_imports.load("autodiff_cli.cli.grad.explain")`; a name
missing from `DEFERRED` is an error, so the list stays the single, reviewed place. A module that
loads several of them does so through one small accessor or table (`commands._command`,
`grad.optional`, `output.optional`, the engine's `_submodule`): tests/test_code_shape.py allows
at most 30 entries and 30 `load()` calls in the package, and checks that each call names an
entry (an entry ending in `.*`, the engine's, stands for the submodules its one table lists).

The command line's shape follows from it: `cli/app.py` imports only the clean start, then loads
the simple command lines' path (`fast_path`) or the Typer app (`commands`); both dispatch to each
command's package (`run`, `grad`, `draw`, `repl`, ...) through an entry here; each command's
package imports what it needs at module level, but for its optional features below.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_ONE_LINER = "not loaded by the one-liner"

DEFERRED: dict[str, str] = {
    # ---- start-up order (cli/app.py, cli/numpy_docs.py, cli/fast_path.py)
    "autodiff_cli.cli.commands": f"the Typer app (Typer and Click, ~30 ms): {_ONE_LINER}",
    "numpy": "imported by numpy_docs with its docstring modules stood in for (~4 ms saved)",
    "autodiff_cli.cli.grad.command": "`autodiff grad` (the one-liner through `fast_path`): it "
    "loads numpy and the engine, so only after the clean start's exec and the BLAS thread "
    "limit, and after the choice of a lean engine",
    "autodiff_cli.cli.simple_commands": "a simple command line's run without Typer "
    "(`app.try_fast`): its option checks load the jail's modules, hence numpy and the engine, so "
    "only after the clean start, the BLAS thread limit and the choice of a lean engine",
    # ---- the commands, dispatched by cli/fast_path.py's `command_module` (`_COMMANDS`, for
    # `commands` and `simple_commands`): each loads only what it runs
    "autodiff_cli.cli.run.command": "`autodiff run`",
    "autodiff_cli.cli.draw.command": "`autodiff graph`",
    "autodiff_cli.cli.repl.main": "`autodiff repl`",
    "autodiff_cli.cli.notebook.kernelspec": "`autodiff kernel install` (Jupyter's packages)",
    "autodiff_cli.cli.jail.doctor": "`autodiff doctor` (the attack battery)",
    "autodiff_cli.cli.repl.terminal": "the REPL on a terminal (prompt_toolkit, ~60 ms): not for "
    "piped input, nor in a jailed child",
    "autodiff_cli.cli.notebook.run_notebook": "`autodiff run NOTEBOOK.ipynb`: the REPL's "
    "session machinery, for notebooks only (with `--json`, the cells' report checked here)",
    "autodiff_cli.cli.notebook.autodiff_kernel": "the Jupyter kernel (ipykernel, the engine): "
    "after the kernel process's clean start and BLAS thread limit",
    # ---- optional features of a command (grad's through `grad.optional`, the output's through
    # `output.optional`)
    "autodiff_cli.cli.grad.explain": f"`--explain` (and the graph page's steps): {_ONE_LINER}",
    "autodiff_cli.cli.grad.fdcheck": f"`--check`: {_ONE_LINER}",
    "autodiff_cli.cli.grad.math_input": "grad's math form (2x, x², √x): only an expression that "
    "looks like math pays for the rewrite (`grad.math_gate` decides)",
    "autodiff_cli.cli.graph_page.commands": "the browser page (`--html`, `:graph NAME html`)",
    "autodiff_cli.cli.output.styled": "Rich (~25 ms): only when the output is styled (a "
    "terminal that takes colour)",
    "rich.progress": "`autodiff run`'s progress bar, on a terminal only",
    "autodiff_cli.cli.output.json_text": f"`--json` output (json): {_ONE_LINER} without `--json`",
    "resource": "rlimits: set by the child's lock-down (cli/jail/lockdown.py), also read there "
    f"after the child ran out of memory; {_ONE_LINER}'s parent (loaded ahead before many "
    "children, `warm_for_many`)",
    # SymPy (~0.3 s to import): its half of the formulas loads only when a formula is asked for
    # (`--formula`, `:formula`); the SymPy-free half (`terms`) runs in the jailed child
    "autodiff_cli.cli.formulas.grad_formulas": "`grad --formula`: the graph read as terms (in the "
    "child, SymPy-free) and its formulas section",
    "autodiff_cli.cli.formulas.sympy_half": "SymPy and the formulas' modules that use it (the "
    "formulas section, the chain rule, terms checked as SymPy expressions), also loaded (and "
    "warmed) before a child forks",
    # ---- the translations (autodiff_cli/i18n.py)
    "gettext": f"a catalogue, for a language other than English: {_ONE_LINER} in English",
    # ---- loaded ahead for a jailed child (cli/jail/warm_up.py) only when its sources may use
    # them: a locked-down child cannot import, and the one-liner does not pay for them
    "numpy.random": "random numbers (`rand`, `seed`, `nn` initialisation...)",
    # ---- the engine's submodules that load on first use, through engine/__init__.py's
    # `_submodule` (its one load): torch.nn, optim, func, linalg... (`_LAZY_SUBMODULES`, PEP 562),
    # the modules behind torch.softmax, xlogy, batch_norm, save/load, and the op families a lean
    # engine leaves out (`_EXTRA_FAMILIES`)
    "autodiff_cli.engine.*": "a one-liner needs none of them (torch.nn alone is 30 modules)",
    # ---- the language (autodiff_cli.lang)
    "autodiff_cli.engine": "the engine loads when a script first imports torch, so that scripts "
    "without torch, the REPL's prompt and the CLI's parent process never pay for it (`import "
    "autodiff_cli.engine` is most of the one-liner's import time); what lang reads of it "
    "(`copy`, the graph commands' recording, the op machinery the sandbox withholds) it reads "
    "through this one entry",
    "autodiff_cli.engine.core.anomaly": "lang/runtime/script_stack.py: the script's anomaly "
    "switches (traces naming script lines), made when a script first reaches them",
    "autodiff_cli.lang.pylib.numpy_module": "a script's `import numpy`: the whole vetted "
    "subset and its wrappers (preloaded in jailed children, not in the one-liner)",
    "autodiff_cli.lang.sandbox.numpy_types": "a tensor's `.numpy()` in a script: the array "
    "wrapper and numpy's submodules it uses (preloaded in jailed children)",
    "autodiff_cli.lang.parse.table_builder": "imports Lark; needed only in a checkout whose "
    "grammar was edited since the shipped tables were built",
}


_PACKAGES = tuple(name[:-1] for name in DEFERRED if name.endswith(".*"))  # ("pkg.",)


def listed(module: str) -> bool:
    """Whether `module` is in `DEFERRED`, by name or under a `package.*` entry."""
    return module in DEFERRED or module.startswith(_PACKAGES)


def load(module: str) -> ModuleType:
    """Import a module named in `DEFERRED` (already-loaded modules cost one dict lookup)."""
    if not listed(module):
        raise KeyError(f"{module} is not in autodiff_cli.lazy_imports.DEFERRED")
    return importlib.import_module(module)
