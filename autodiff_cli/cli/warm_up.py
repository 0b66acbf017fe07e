"""What the parent imports before forking a child: once locked down, a child cannot open a file,
so it cannot import anything either."""

from __future__ import annotations

import builtins
import codecs
import io
import os
import re
from collections.abc import Iterable
from keyword import kwlist
from typing import Any

LAZY_SUBMODULES = (
    "autograd", "backends", "cuda", "func", "linalg", "masked", "nn", "optim", "profiler",
    "special", "utils",
)  # fmt: skip
# words of a source that may reach numpy.random, which the engine imports on first use
_NN_WORDS = ("nn", "softmax")  # torch.softmax and Tensor.softmax live in nn.functional
_RANDOM_WORDS = (
    "rand",
    "seed",
    "normal",
    "uniform",
    "bernoulli",
    "multinomial",
    "drop",
    "shuffle",
    "init",
    "Generator",
    "gradcheck",
    "nn",
    "utils",
    "sample",
)
_WARM_SOURCE = 'x = [i for i in range(2)]\ny = f"{x!r:>4}"\n'
_CODECS = (
    "ascii",
    "latin-1",
    "utf-8",
    "utf-8-sig",
    "utf-16",
    "utf-32",
    "unicode_escape",
    "raw_unicode_escape",
    "cp1252",
    "cp437",
)


def warm_up(
    sources: Iterable[str | bytes] | None = None,
    *,
    rendering: bool = False,
    command: str | None = None,
    leave_out: Iterable[str] = (),
    json_output: bool = True,
) -> None:
    """Import, in the parent, everything a child needs: it cannot open a file once locked down.

    The engine, the language with its parse tables, this package's command modules (with
    `command`, e.g. "grad_cmd", only that module and the modules of this package it names,
    transitively, but for those in `leave_out`, which the command imports itself when its
    options need them: the one-liner's start-up stays short); the
    engine's lazy submodules (`nn`, `optim`, ...) all, or with `sources` only those whose name
    the sources mention (the one-liner's start-up stays short), and numpy's random module when
    the sources may use it; the text codecs when the sources may encode or decode text; with
    `rendering`, Rich, warmed by drawing once (it imports parts of itself while drawing);
    `json` unless `json_output` is False (a command without `--json`).
    """
    import traceback  # noqa: F401 - --debug

    if json_output:
        import json  # noqa: F401

    import autodiff_cli.engine as engine
    from autodiff_cli.lang import compile_source

    if sources is None or _names_other_ops(sources, engine):
        engine._load_extra_ops()  # (a no-op unless the engine was imported lean)

    # The compiler and the parser with its tables, imported and built by compiling a sample:
    # it also fills the caches a comprehension and an f-string build on first use, which a
    # child would otherwise build under its memory limit (a script that filled its memory
    # then crashed formatting its error: tests/hostile/memory_full_then_deep_calls.ad).
    compile_source(_WARM_SOURCE, "<warm-up>")
    if command is None:
        _import_command_modules()
    else:
        _import_named_modules(command, leave_out)
    if sources is None or _may_use_codecs(sources):  # they load on first use
        for encoding in _CODECS:
            codecs.lookup(encoding)
    if sources is None:
        wanted, random = LAZY_SUBMODULES, True
    else:
        text = b"\n".join(s.encode(errors="replace") if isinstance(s, str) else s for s in sources)
        words = {name: (name,) for name in LAZY_SUBMODULES} | {"nn": _NN_WORDS}
        wanted = tuple(
            name for name in LAZY_SUBMODULES if any(word.encode() in text for word in words[name])
        )
        random = any(word.encode() in text for word in _RANDOM_WORDS)
    engine.autograd  # noqa: B018 - the commands use it (jacobians, gradient probes)
    for name in wanted:
        module = getattr(engine, name)
        if hasattr(module, "load_all"):  # (torch.autograd: its parts load on first use)
            module.load_all()
    if sources is None or b"save" in text or b"load" in text:  # torch.save/load, and the
        import autodiff_cli.engine.nn  # noqa: F401 - Parameters they load
        import autodiff_cli.engine.serialization  # noqa: F401
    if random:
        import numpy.random  # noqa: F401
    if sources is None or b"numpy" in text:  # a script's numpy, tensor.numpy()
        import autodiff_cli.lang.pylib.numpy_module  # noqa: F401
    from autodiff_cli.lang.pylib import modules  # random, warnings, functools, itertools...

    modules.preload(None if sources is None else text)
    if rendering:
        _warm_rich()


# what a source that encodes or decodes text names (`s.encode("utf-16")`, `str(b, "latin-1")`,
# `bytes(s, ...)`, a bytes literal formatted with `%`): the codecs are loaded for it
_CODEC_WORDS = re.compile(r"encode|decode|bytes|bytearray|str|[bB][rR]?['\"]")


def _may_use_codecs(sources: Iterable[str | bytes]) -> bool:
    return any(
        _CODEC_WORDS.search(s.decode(errors="replace") if isinstance(s, bytes) else s)
        for s in sources
    )


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_ASSIGNED = re.compile(r"([A-Za-z_]\w*)\s*=(?!=)")  # an `--at` value's variable


def _names_other_ops(sources: Iterable[str | bytes], engine: Any) -> bool:
    """Whether the sources name anything a lean engine may lack: any identifier that is not
    a name the engine already has (on `torch` or on Tensor), a Python name, or a variable the
    sources assign."""
    text = "\n".join(s.decode(errors="replace") if isinstance(s, bytes) else s for s in sources)
    known = set(vars(engine)) | set(dir(engine.Tensor)) | set(dir(builtins)) | set(kwlist)
    known |= set(_ASSIGNED.findall(text)) | set(LAZY_SUBMODULES) | {"torch"}
    return any(word not in known for word in _IDENTIFIER.findall(text))


# the entry points (Typer, prompt_toolkit): never imported by a child
_NOT_IN_CHILDREN = {"__init__", "__main__", "app", "commands", "fast_path", "repl_terminal"}


def _import_command_modules() -> None:
    """Every module of this package the children may import on the way (reports, graphs)."""
    import importlib

    folder = os.path.dirname(__file__)
    for name in sorted(os.listdir(folder)):
        stem, dot, suffix = name.partition(".")
        if suffix == "py" and stem not in _NOT_IN_CHILDREN:
            importlib.import_module(f"{__package__}.{stem}")


_NAMED_MODULE = re.compile(rb"autodiff_cli\.cli(?:\.| import )(\w+)")


def _import_named_modules(start: str, leave_out: Iterable[str] = ()) -> None:
    """`start` and every module of this package named in its source (`autodiff_cli.cli.x` or
    `from autodiff_cli.cli import x`), imports inside functions included, transitively; not
    those in `leave_out` (nor what only they name)."""
    import importlib

    folder = os.path.dirname(__file__)
    seen, todo = set(_NOT_IN_CHILDREN) | set(leave_out), [start]
    while todo:
        name = todo.pop()
        path = os.path.join(folder, f"{name}.py")
        if name in seen or not os.path.isfile(path):  # a package name in a docstring
            continue
        seen.add(name)
        importlib.import_module(f"{__package__}.{name}")
        with open(path, "rb") as source:
            todo.extend(m.decode() for m in _NAMED_MODULE.findall(source.read()))


def _warm_rich() -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    from rich.tree import Tree

    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=80)
    tree = Tree(Text("a", style="bold"))
    tree.add("b ─ é ←").add(Text("c", style="red"))  # (← : the source beside a node)
    table = Table("x", "y")
    table.add_row("1", Text("2", style="cyan"))
    console.print(tree, table)
