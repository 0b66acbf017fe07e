"""Grammar-based fuzzing: generated and mutated programs end in a result or a ScriptError.

Never an internal exception (a bug in the language or a missing check) and never a hang: each
program runs under `request_interrupt` from a timer, so a generated infinite loop is stopped.
"""

from __future__ import annotations

import io
import re
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff_cli.lang import ScriptError, ScriptTimeout, request_interrupt, run_source

NAMES = ["x", "y", "f", "t", "i", "torch", "math", "print", "len", "range", "A"]
ATOMS = ["0", "1", "2.5", "-3", "'s'", "None", "True", "[]", "{}", "()", "x", "y", "t",
         "torch.ones(2)", "torch.tensor([1.0, 2.0], requires_grad=True)", "math.pi"]  # fmt: skip
BINARY = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "==", "<", "in",
          "is not", "and", "or"]  # fmt: skip
STATEMENT_KEYWORDS = ["if", "while", "for", "def", "class", "try", "return", "with", "lambda",
                      "import", "from", "del", "global", "raise", "assert", ":", "(", ")", "[",
                      "]", "{", "}", ",", ".", "=", "\n", "    ", "\t", "'", '"', "#", "\\"]  # fmt: skip
PRELUDE = "import torch\nimport math\nx = 1\ny = 2.0\nt = torch.ones(3, requires_grad=True)\n"


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)
    if depth == 0:
        return atom
    inner = expressions(depth - 1)
    return st.one_of(
        atom,
        st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(BINARY), inner),
        st.builds(lambda a: f"-{a}", inner),
        st.builds(lambda a: f"not {a}", inner),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["len", "abs", "print", "str",
                                                             "torch.exp", "math.sqrt"]), inner),
        st.builds(lambda a, name: f"{a}.{name}", inner,
                  st.sampled_from(["sum()", "grad", "shape", "upper()", "real", "__class__"])),
        st.builds(lambda a, b: f"{a}[{b}]", inner, inner),
        st.builds(lambda a, b: f"[{a} for i in range(3) if {b}]", inner, inner),
        st.builds(lambda a, b: f"{{{a}: {b}}}", inner, inner),
        st.builds(lambda a: f"(lambda i: {a})(1)", inner),
        st.builds(lambda a: f"f'{{{a}}}'", inner),
    )  # fmt: skip


def statements(depth: int = 2) -> st.SearchStrategy[str]:
    expression = expressions()
    simple = st.one_of(
        st.builds(lambda n, e: f"{n} = {e}", st.sampled_from(NAMES), expression),
        st.builds(lambda e: f"print({e})", expression),
        st.builds(lambda n, e: f"{n} += {e}", st.sampled_from(NAMES), expression),
        st.builds(lambda e: f"y = ({e}).backward()", expression),
        st.builds(lambda e: f"assert {e}", expression),
        st.builds(lambda e: f"raise {e}", expression),
        st.just("del x"),
    )
    if depth == 0:
        return simple.map(lambda line: [line])
    body = st.lists(statements(depth - 1), min_size=1, max_size=3).map(
        lambda blocks: [line for block in blocks for line in block]
    )

    def indent(lines: list[str]) -> list[str]:
        return ["    " + line for line in lines]

    return st.one_of(
        simple.map(lambda line: [line]),
        st.builds(lambda e, b: [f"if {e}:", *indent(b)], expression, body),
        st.builds(lambda e, b: [f"while {e}:", *indent(b)], expression, body),
        st.builds(lambda e, b: [f"for i in {e}:", *indent(b)], expression, body),
        st.builds(lambda b: ["def f(a, *args, k=1, **kw):", *indent(b), "    return a"], body),
        st.builds(lambda b: ["class A:", "    def m(self):", *indent(indent(b))], body),
        st.builds(
            lambda b, h: ["try:", *indent(b), "except Exception as e:", *indent(h)], body, body
        ),
    )


programs = st.lists(statements(), min_size=1, max_size=5).map(
    lambda blocks: PRELUDE + "\n".join(line for block in blocks for line in block) + "\n"
)


@st.composite
def mutated_programs(draw: st.DrawFn) -> str:
    """A generated program with a few characters or tokens inserted, deleted or replaced."""
    text = draw(programs)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        token = draw(st.one_of(st.sampled_from(STATEMENT_KEYWORDS), st.characters()))
        if action == "insert":
            text = text[:position] + token + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 5)) :]
        else:
            text = text[:position] + token + text[position + 1 :]
    return text


def run_bounded(source: str | bytes) -> None:
    """Run `source`; only a ScriptError may escape, and the run is stopped after 2 seconds."""
    timer = threading.Timer(2.0, lambda: request_interrupt(ScriptTimeout("fuzz time limit")))
    timer.start()
    try:
        run_source(source, "fuzz.py", stdout=io.StringIO())
    except ScriptError as error:
        assert error.type_name and error.filename == "fuzz.py"
        assert error.line >= 0 and error.column >= 0
        str(error)  # renders
    finally:
        timer.cancel()


FUZZ_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)


@FUZZ_SETTINGS
@given(programs)
def test_generated_programs(source: str) -> None:
    run_bounded(source)


@FUZZ_SETTINGS
@given(mutated_programs())
def test_mutated_programs(source: str) -> None:
    run_bounded(source)


@settings(max_examples=100, deadline=None, database=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes(source: bytes) -> None:
    run_bounded(source)


# ---- capabilities: attribute chains and format strings never reach outside the sandbox -------

CAPABILITY_PRELUDE = """import torch
import torch.nn as nn
import math
import numpy as np
class A:
    def m(self):
        return 1
class S(str):
    pass
class E(Exception):
    pass
def f():
    return 1
t = torch.ones(2, requires_grad=True)
"""
STARTS = ["1", "True", "2.5", "'s'", "b", "[]", "{}", "()", "range(3)", "slice(1)", "print", "len",
          "f", "A", "A()", "A().m", "S", "S('x')", "E('x')", "E", "torch", "math", "math.sqrt",
          "t", "t.sum().grad_fn", "t.device", "torch.float32", "nn", "nn.Linear(1, 1)", "nn.Module",
          "torch.Tensor", "str", "int", "object", "BaseException", "type(1)", "type(type(1))",
          "type(f)", "type(torch)", "type(None)", "super(S, S('x'))", "map(abs, [1])",
          "(i for i in [1])", "iter([1])", "{}.keys()", "property(f)", "staticmethod(f)",
          "torch.optim.SGD([t], lr=0.1)", "E('x').args", "np", "np.zeros(2)", "np.float32(1.5)",
          "np.float32", "np.zeros(2).dtype", "np.random", "np.random.default_rng(0)",
          "t.detach().numpy()", "np.ndarray", "np.zeros(2).sum"]  # fmt: skip
ATTRIBUTES = ["__class__", "__globals__", "__dict__", "__mro__", "__subclasses__", "__init__",
              "__func__", "__self__", "__code__", "__builtins__", "__module__", "__bases__",
              "__base__", "__getattribute__", "__reduce_ex__", "__closure__", "__traceback__",
              "__objclass__", "__wrapped__", "__name__", "__doc__", "__call__", "__get__",
              "gi_frame", "gi_code", "f_globals", "f_back", "tb_frame", "fget", "np", "numpy",
              "type", "format", "format_map", "real", "T", "grad_fn", "next_functions",
              "state_dict", "mro", "environ", "modules", "os", "sys", "system", "args", "value",
              "_proxy_lazy", "_proxy_name", "_data", "_version", "param_groups", "upper", "join",
              "keys", "get", "nn", "functional", "Module", "apply", "append", "fromkeys",
              "maketrans", "from_bytes", "to_bytes", "ljust", "obj", "name", "defaults", "tofile",
              "ctypes", "base", "dump", "_a", "_v", "_dt", "_g", "random", "state", "dtype",
              "item", "tolist", "seed", "bit_generator", "__array__", "__array_interface__"]  # fmt: skip
STEPS = st.tuples(st.sampled_from(ATTRIBUTES), st.sampled_from(["", "", "()", "[0]"]))
CANARY = "canary-capability-7c2e"


def _outside(value: object) -> str | None:
    """Why `value` should never have reached a script, or None."""
    import types

    import numpy as np

    from autodiff_cli.lang.sandbox import typeview

    if isinstance(value, (np.ndarray, np.generic, np.dtype, np.ufunc, np.random.Generator,
                          np.random.RandomState, np.random.BitGenerator)):  # fmt: skip
        return f"the raw numpy value {type(value).__name__}"

    if isinstance(value, (types.ModuleType, types.FrameType, types.CodeType, types.CellType,
                          types.TracebackType, types.MappingProxyType)):  # fmt: skip
        return f"a {type(value).__name__}"
    if isinstance(value, type) and not typeview.class_is_known(value):
        return f"the real class {value!r}"
    if isinstance(value, types.FunctionType) and not (value.__module__ or "").startswith(
        ("autodiff_cli.", "__main__")
    ):
        return f"the foreign function {value!r}"
    if isinstance(value, types.BuiltinFunctionType):
        owner = getattr(value, "__self__", None)
        if isinstance(owner, types.ModuleType) and owner.__name__ not in ("builtins", "math"):
            return f"the builtin {value!r} of module {owner.__name__}"
    if isinstance(value, dict) and ("__builtins__" in value or CANARY in value.values()):
        return "a module's globals or the environment"
    text = value if isinstance(value, str) else ""
    # a code object's text names its file: the script's own (`<stdin>` here) is what
    # `f.__code__`'s stand-in shows; any other (the package's, the standard library's) leaks
    host_code = re.search(r'<code object [^>]*file "(?!<stdin>")', text)
    if CANARY in text or "<module 'os'" in text or "<frame" in text or host_code:
        return f"the text {text[:200]!r}"
    return None


def _run_capability(body: str) -> object:
    """Run `body` after the prelude; the value of `result` (None when the run failed cleanly)."""
    from autodiff_cli.lang import Session

    session = Session(stdout=io.StringIO())
    session.execute(CAPABILITY_PRELUDE)
    session.namespace["b"] = b"bytes"
    timer = threading.Timer(2.0, lambda: request_interrupt(ScriptTimeout("fuzz time limit")))
    timer.start()
    try:
        session.execute(body, filename="fuzz.py")
    except ScriptError as error:
        assert error.filename == "fuzz.py" and error.type_name, error
        assert "Traceback" not in str(error)
        return None
    finally:
        timer.cancel()
    return session.namespace.get("result")


@FUZZ_SETTINGS
@given(st.sampled_from(STARTS), st.lists(STEPS, min_size=1, max_size=4))
def test_attribute_chains_stay_inside(start: str, steps: list[tuple[str, str]]) -> None:
    import os

    os.environ["AUTODIFF_FUZZ_CANARY"] = CANARY
    chain = start + "".join(f".{name}{suffix}" for name, suffix in steps)
    result = _run_capability(f"result = {chain}\nresult_type = type(result)\n")
    assert _outside(result) is None, (chain, _outside(result))


FORMATTERS = ["result = TEMPLATE.format(OBJ)", "result = TEMPLATE.format_map({'x': OBJ})",
              "result = str.format(TEMPLATE, OBJ)", "result = S(TEMPLATE).format(OBJ)",
              "result = super(S, S(TEMPLATE)).format(OBJ)", "result = S.format(TEMPLATE, OBJ)",
              "result = f'{OBJ!r}' + TEMPLATE.format(OBJ)"]  # fmt: skip


@FUZZ_SETTINGS
@given(
    st.sampled_from(STARTS),
    st.lists(
        st.one_of(st.sampled_from(ATTRIBUTES).map(lambda n: "." + n),
                  st.sampled_from(["[0]", "[x]", "[__globals__]", "[os]", "[environ]"])),
        max_size=4,
    ),
    st.sampled_from(["", "!r", "!s", ":>10", ":{0}"]),
    st.sampled_from(FORMATTERS),
)  # fmt: skip
def test_format_strings_stay_inside(start: str, fields: list[str], tail: str, use: str) -> None:
    import os

    os.environ["AUTODIFF_FUZZ_CANARY"] = CANARY
    head = "x" if "format_map" in use else "0"
    template = repr("{" + head + "".join(fields) + tail + "}")
    body = use.replace("TEMPLATE", template).replace("OBJ", start)
    result = _run_capability(body)
    assert _outside(result) is None, (body, _outside(result))


def test_the_escape_detector_sees_escapes() -> None:
    import os
    import sys

    import numpy as np

    os.environ["AUTODIFF_FUZZ_CANARY"] = CANARY
    for escaped in (os, np.ndarray, sys._getframe(), os.system, _fuzz_globals(), CANARY,
                    repr(os), type(None), np.add.__call__.__objclass__, np.zeros(1),
                    np.float32(1), np.dtype("f4"), np.add):  # fmt: skip
        assert _outside(escaped) is not None, escaped
    from autodiff_cli.lang.sandbox.capabilities import make_getter

    for inside in (1, "text", str, int, print, len, make_getter,
                   '<code object f at 0x7f00, file "<stdin>", line 1>'):  # fmt: skip
        assert _outside(inside) is None, inside
    assert _outside(repr(make_getter.__code__)) is not None  # the package's own code object
    assert _outside(repr(os.path.join.__code__)) is not None  # the standard library's


def _fuzz_globals() -> dict:
    return globals()
