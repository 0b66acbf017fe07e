"""The one list of imports deferred to first use, each with the reason it is deferred.

Every other import in the package sits at the top of its module. A module lands here only when
loading it eagerly would cost the one-liner's start-up (`autodiff grad "x**2" --at x=3`, measured
by `bench/startup.py`) or pull in a heavy optional library (SymPy, Jupyter, the browser page)
that most runs never use. Callers write `lazy_imports.load("autodiff_cli.cli.formulas")`; a
name missing from `DEFERRED` is an error, so the list stays the single, reviewed place.
"""

from __future__ import annotations

import importlib
from types import ModuleType

DEFERRED: dict[str, str] = {
    # module path: why it is not imported at the top of its user
    "autodiff_cli.cli.math_input": "grad's math form (2x, x², √x): only an expression that "
    "looks like math pays for the rewrite (cli/math_gate)",
    # -- the engine's torch.* functions that live in its lazily loaded submodules (h1) --
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
    "autodiff_cli.engine.core.anomaly": "lang/runtime/script_stack.py: anomaly mode's traces "
    "name script lines, handed over when a script first imports torch",
    "autodiff_cli.engine.ops.indexing": "lang/pylib/numpy_types.py: `t[np_index]` reads the "
    "script's numpy wrappers, registered when they load (which does not load the engine)",
    "autodiff_cli.lang.pylib.numpy_module": "a script's `import numpy`: the whole vetted "
    "subset and its wrappers (preloaded in jailed children, not in the one-liner)",
    "autodiff_cli.lang.pylib.numpy_array": "a tensor's `.numpy()` in a script: the array "
    "wrapper and numpy's submodules it uses (preloaded in jailed children)",
    "autodiff_cli.lang.parse.table_builder": "imports Lark; needed only in a checkout whose "
    "grammar was edited since the shipped tables were built",
}


def load(module: str) -> ModuleType:
    """Import a module named in `DEFERRED` (already-loaded modules cost one dict lookup)."""
    if module not in DEFERRED:
        raise KeyError(f"{module} is not in autodiff_cli.lazy_imports.DEFERRED")
    return importlib.import_module(module)
