"""What the parent imports before forking a child: once locked down, a child cannot open a file,
so it cannot import anything either."""

from __future__ import annotations

import builtins
import codecs
import importlib
import os
import re
import traceback  # noqa: F401 - a child's --debug
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from keyword import kwlist
from typing import Any

import autodiff_cli.engine as engine
from autodiff_cli import lazy_imports
from autodiff_cli.cli import output
from autodiff_cli.cli.jail import seccomp
from autodiff_cli.cli.jail.frame_reserve import make_c_stack_map
from autodiff_cli.engine.core.limits import DEFAULT_MAX_ELEMENTS, get_max_elements, set_max_elements
from autodiff_cli.lang import compile_source
from autodiff_cli.lang.pylib import modules

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
    every_command: bool = True,
    json_output: bool = True,
) -> None:
    """Import, in the parent, everything a child needs: it cannot open a file once locked down.

    The engine, the language with its parse tables, with `every_command` the modules of the
    commands' packages (a script may reach any of them on the way: reports, graphs, the REPL's
    meta-commands), else only what the calling command imported already (`grad`: its optional
    passes it loads itself when asked for, so that the one-liner's start-up stays short); the
    engine's lazy submodules (`nn`, `optim`, ...) all, or with `sources` only those whose name
    the sources mention (the one-liner's start-up stays short), and numpy's random module when
    the sources may use it; the text codecs when the sources may encode or decode text; with
    `rendering`, Rich, warmed by drawing once (it imports parts of itself while drawing);
    `json` unless `json_output` is False (a command without `--json`). The warm-up's own
    samples are not held to `--max-elements` (`element_cap_lifted`).
    """
    with element_cap_lifted():
        _warm_up(sources, rendering, every_command, json_output)


@contextmanager
def element_cap_lifted() -> Iterator[None]:
    """Our own samples are not held to the user's `--max-elements` (set before the warm-up): a
    cap below their size must not end the command; the children are held to it again."""
    cap = get_max_elements()
    set_max_elements(max(cap, DEFAULT_MAX_ELEMENTS))
    try:
        yield
    finally:
        set_max_elements(cap)


def _warm_up(
    sources: Iterable[str | bytes] | None, rendering: bool, every_command: bool, json_output: bool
) -> None:
    make_c_stack_map()  # (each child hashes it: see frame_reserve)
    if seccomp.supported():
        seccomp.compiled(1, True)  # the filter a child in its own PID namespace loads
    if json_output:
        output.optional("json_text")
    if sources is None or _names_other_ops(sources, engine):
        engine._load_extra_ops()  # (a no-op unless the engine was imported lean)

    # The compiler and the parser with its tables, imported and built by compiling a sample:
    # it also fills the caches a comprehension and an f-string build on first use, which a
    # child would otherwise build under its memory limit (a script that filled its memory
    # then crashed formatting its error: tests/hostile/memory_full_then_deep_calls.ad).
    compile_source(_WARM_SOURCE, "<warm-up>")
    if every_command:
        _import_command_modules()
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
        engine.nn  # noqa: B018 - the Parameters they load
        engine._submodule(engine._SERIALIZATION)
    if random:
        lazy_imports.load("numpy.random")
    if sources is None or b"numpy" in text:  # a script's numpy, tensor.numpy()
        lazy_imports.load("autodiff_cli.lang.pylib.numpy_module")
    modules.preload(None if sources is None else text)  # random, warnings, functools...
    if rendering:
        output.optional("styled").warm()


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


# the packages whose modules a child may import on the way; the terminal's Rich and
# prompt_toolkit are never imported by a child (`rendering` warms Rich), nor `doctor`'s battery,
# nor the graph page (the commands that draw one load it themselves)
_CHILD_PACKAGES = ("draw", "grad", "graph", "jail", "output", "repl", "run")
_NOT_IN_CHILDREN = {
    "jail.attacks", "jail.battery", "jail.doctor", "jail.raw", "output.styled", "repl.terminal",
}  # fmt: skip


def _import_command_modules() -> None:
    """Every module of the commands' packages that the children may import on the way."""
    cli = os.path.dirname(os.path.dirname(__file__))
    for package in _CHILD_PACKAGES:
        for name in sorted(os.listdir(os.path.join(cli, package))):
            stem, _, suffix = name.partition(".")
            module = f"{package}.{stem}"
            if suffix == "py" and stem != "__init__" and module not in _NOT_IN_CHILDREN:
                importlib.import_module(f"autodiff_cli.cli.{module}")
