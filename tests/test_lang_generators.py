"""Generators, `:=`, `global`/`nonlocal`, `dir()` and `help()`: scripts behave as CPython runs
them (the oracle is this very interpreter: the same source through `exec`), errors are located
with Python's messages, and generator objects keep the sandbox's rules."""

from __future__ import annotations

import contextlib
import gc
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_runner import error_of, run

from autodiff_cli.lang import ScriptError, compile_source, new_namespace, run_source
from autodiff_cli.lang.compile.compiler import Compiler

REPO = Path(__file__).resolve().parent.parent


def python_output(source: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "s.py", "exec"), {"__name__": "__main__"})  # noqa: S102 - oracle
    return out.getvalue()


PROGRAMS = {
    "count_return": """
def count(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return "done"
print(list(count(4)), sum(count(5)), max(count(3)), sorted(count(3), reverse=True))
g = count(2)
print(next(g), next(g), next(g, "default"))
try:
    next(count(0))
except StopIteration as stop:
    print("stopped with", stop.value)
""",
    "send_and_close": """
def averager():
    total = count = 0
    average = None
    try:
        while True:
            value = yield average
            if value is None:
                break
            total += value
            count += 1
            average = total / count
    finally:
        print("finally runs", count)
    return total
a = averager()
print(next(a), a.send(10), a.send(20), a.send(60))
try:
    a.send(None)
except StopIteration as stop:
    print("returned", stop.value)
b = averager()
next(b)
b.close()
b.close()
print(list(b))
""",
    "yield_from_delegation": """
def inner():
    first = yield "a"
    second = yield "b"
    return (first, second)
def outer():
    got = yield from inner()
    print("inner gave", got)
    yield from [1, 2]
    yield from (x * x for x in range(3))
    yield from "hi"
o = outer()
print(next(o), o.send(1), o.send(2))
print(list(o))
def flatten(items):
    for item in items:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item
print(list(flatten([1, [2, [3, [4]], 5], [[6]]])))
""",
    "throw_and_exceptions": """
def worker():
    while True:
        try:
            job = yield
            print("job", job)
        except ValueError as error:
            print("recovered from", error)
        except KeyError:
            print("key error, stopping")
            return "stopped"
w = worker()
next(w)
w.send(1)
w.throw(ValueError("bad input"))
w.send(2)
try:
    w.throw(KeyError("k"))
except StopIteration as stop:
    print(stop.value)
def closing():
    try:
        yield 1
    except GeneratorExit:
        print("exit seen")
        raise
c = closing()
next(c)
c.close()
def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield 2
s = stubborn()
next(s)
try:
    s.close()
except RuntimeError as error:
    print("RuntimeError:", error)
""",
    "methods_classes_iteration": """
class Countdown:
    def __init__(self, start):
        self.start = start
    def __iter__(self):
        n = self.start
        while n > 0:
            yield n
            n -= 1
    def pairs(self):
        for i, v in enumerate(self):
            yield i, v
c = Countdown(3)
print(list(c), list(c.pairs()), [v * 2 for v in c], dict(c.pairs()))
print(sum(v for v in Countdown(4)), any(v > 3 for v in c), tuple(zip(c, "abc")))
for i, v in enumerate(Countdown(2)):
    print(i, v)
print(*Countdown(3), sep="-")
a, b, *rest = Countdown(5)
print(a, b, rest)
gen = (lambda: (yield 5))()
print(list(gen))
""",
    "control_flow_in_generators": """
def mixed(limit):
    for i in range(limit):
        if i == 1:
            continue
        elif i == 4:
            break
        with Guard(i) as g:
            got = yield g
            if got:
                yield "sent " + got
    else:
        yield "no break"
    yield "after"
class Guard:
    def __init__(self, i):
        self.i = i
    def __enter__(self):
        return self.i * 10
    def __exit__(self, *args):
        print("exit", self.i)
        return False
m = mixed(6)
print(next(m), m.send("x"), next(m), next(m), next(m))
print(list(mixed(3)))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
f = fib()
print([next(f) for _ in range(10)])
def nested_yields():
    x = yield (yield 1) + 1
    print("x =", x)
    print((yield "p"), (yield "q"))
    total = 0
    total += yield
    return total
n = nested_yields()
print(next(n), n.send(5), n.send(7), n.send("a"), n.send("b"))
try:
    n.send(3)
except StopIteration as stop:
    print("total", stop.value)
""",
    "conditional_yields": """
def pick(flag):
    x = (yield "asked") if flag else "no question"
    print("x =", x)
    y = flag and (yield "and") or (yield "or")
    print("y =", y)
    z = [1, (yield "in list") if not flag else 0, 3]
    print("z =", z)
    if flag or (yield "if test"):
        print("branch")
    return (yield "last") if flag else None
for flag in (True, False):
    g = pick(flag)
    out = [next(g)]
    try:
        while True:
            out.append(g.send(len(out)))
    except StopIteration as stop:
        print(flag, out, stop.value)
""",
    "scoping_walrus_global_nonlocal": """
data = [4, 9, 1, 7]
if (n := len(data)) > 3:
    print("n =", n)
it = iter(data)
while (item := next(it, None)) is not None:
    print(item, end=" ")
print()
print([y for x in data if (y := x * 3) > 10], y)
def running():
    total = 0
    sums = [total := total + v for v in range(5)]
    return total, sums
print(running())
print([(last := i * i) for i in range(4)], last)
print({(k := s): len(s) for s in ["ab", "c"]}, k)
print(max(values := [3, 8, 2]), values, f"{(w := 6)}", w)
counter = 0
def bump():
    global counter
    counter += 1
    return counter
bump()
bump()
print(counter)
def make_counter():
    count = 0
    def increment():
        nonlocal count
        count += 1
        return count
    return increment
inc = make_counter()
print(inc(), inc(), inc())
def outer():
    x = 1
    def middle():
        def inner():
            nonlocal x
            x += 10
            return x
        return inner()
    return middle(), x
print(outer())
def locals_listed(a, b=2, *rest):
    c = 3
    def inner():
        return c
    unbound_yet = dir()
    d = 4
    return unbound_yet, dir()
print(locals_listed(1))
def shadowed():
    dir = lambda: "own dir"
    return dir()
print(shadowed())
def uses_global_walrus():
    global seen
    [(seen := v) for v in "xyz"]
uses_global_walrus()
print(seen)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_print_what_python_prints(name: str) -> None:
    source = PROGRAMS[name].lstrip("\n")
    assert run(source) == python_output(source)


SYNTAX_ERRORS = [
    "yield 1\n",
    "class A:\n    yield 1\n",
    "x = [(yield) for y in z]\n",
    "def f():\n    return ((yield) for y in z)\n",
    "def f():\n    {(yield) for y in z}\n",
    "def f():\n    x = yield = 1\n",
    "nonlocal x\n",
    "def f():\n    nonlocal x\n",
    "def f():\n    x = 1\n    global x\n",
    "def f():\n    print(x)\n    global x\n",
    "def f(x):\n    global x\n",
    "def f(x):\n    nonlocal x\n",
    "def g():\n    x = 1\n    def f():\n        x = 2\n        nonlocal x\n",
    "def g():\n    x = 1\n    def f():\n        print(x)\n        nonlocal x\n",
    "def f():\n    global x\n    nonlocal x\n",
    "class A:\n    [(y := 1) for x in 'ab']\n",
    "def f():\n    [(x := 1) for x in 'ab']\n",
    "def f():\n    [x for x in (y := [1])]\n",
]


@pytest.mark.parametrize("source", SYNTAX_ERRORS)
def test_misuse_is_pythons_syntax_error_at_pythons_line(source: str) -> None:
    with pytest.raises(SyntaxError) as python:
        compile(source, "s.py", "exec")
    error = error_of(source)
    assert (error.type_name, error.message) == ("SyntaxError", python.value.msg)
    assert error.line == python.value.lineno
    assert error.column == python.value.offset


def test_walrus_as_a_statement_is_a_located_syntax_error() -> None:
    error = error_of("x = 1\nx := 2\n")
    assert (error.type_name, error.line, error.column) == ("SyntaxError", 2, 3)


RUNTIME_ERRORS = [
    "def g():\n    yield\nx = g()\nnext(x)\nnext(x)\n",
    "def g():\n    yield 1\n    raise ValueError('bad')\nx = g()\nnext(x)\nnext(x)\n",
    "def g():\n    next(iter([]))\n    yield\nnext(g())\n",
    "def g():\n    yield\ng().send(3)\n",
    "def g():\n    yield next(me)\nme = g()\nnext(me)\n",
    "def g():\n    yield from 5\nnext(g())\n",
    "def g():\n    yield\nnext(g(), 1, 2)\n",
]


@pytest.mark.parametrize("source", RUNTIME_ERRORS)
def test_runtime_errors_are_pythons(source: str) -> None:
    with pytest.raises(Exception) as python:  # noqa: PT011 - compared below
        python_output(source)
    error = error_of(source)
    assert error.type_name == type(python.value).__name__
    assert error.message == str(python.value)


def test_error_inside_a_generator_is_located_as_in_a_function() -> None:
    generator = error_of("def g():\n    yield 1\n    x = 1 / 0\nit = g()\nnext(it)\nnext(it)\n")
    function = error_of("def g():\n    1\n    x = 1 / 0\ng()\n")
    assert generator.type_name == function.type_name == "ZeroDivisionError"
    assert (generator.line, generator.column) == (function.line, function.column) == (3, 9)


def test_generator_objects_show_as_pythons() -> None:  # help(g): its public methods
    out = run(
        "def gen():\n    yield 1\ng = gen()\nprint(type(g), type(g).__name__, isinstance(g, type(g)))\n"
        "print(repr(g).startswith('<generator object gen at 0x'))\n"
        "class K:\n    def m(self):\n        yield\nprint(repr(K().m()).split(' at ')[0])\n"
        "print([n for n in dir(g) if not n.startswith('_')])\nhelp(g)\n"
    )
    assert out == (
        "<class 'generator'> generator True\nTrue\n<generator object K.m\n"
        "['close', 'send', 'throw']\nHelp on class generator:\n\nclass generator\n"
        " |  What a script's generator function returns (shown and typed as Python's "
        "`generator`).\n |  \n |  Methods:\n |  \n |  close(self)\n |  send(self, value, /)\n"
        " |  throw(self, *args)\n"
    )


@pytest.mark.parametrize(
    ("attack", "kind"),
    [
        ("g.gi_frame", "AttributeError"),
        ("g.gi_code", "AttributeError"),
        ("g._body", "AttributeError"),
        ("g.send.__func__", "AttributeError"),
        ("type(g)()", "TypeError"),
        ("type(g).send(Fake(), None)", "AttributeError"),
        ("type(type(g).__name__)", None),
    ],
)
def test_generator_objects_hide_their_frames(attack: str, kind: str | None) -> None:
    source = (
        f"def gen():\n    yield 1\ng = gen()\nclass Fake:\n    _body = iter([1])\nprint({attack})\n"
    )
    if kind is None:
        assert run(source) == "<class 'str'>\n"
    else:
        assert error_of(source).type_name == kind


def test_a_script_class_cannot_derive_from_generator() -> None:
    error = error_of("def gen():\n    yield\nclass Mine(type(gen())):\n    pass\n")
    assert error.type_name == "TypeError"
    assert error.message.startswith("scripts cannot derive a class from 'generator'")


def test_generator_recursion_is_bounded_and_catchable() -> None:
    out = run(
        "def down(n):\n    yield n\n    yield from down(n + 1)\nlast = 0\ntry:\n"
        "    for last in down(0):\n        pass\nexcept RecursionError:\n    print('caught', last > 500)\n"
    )
    assert out == "caught True\n"


def test_a_generator_closed_after_its_script_runs_none_of_its_code() -> None:
    out = io.StringIO()
    source = (
        "def g():\n    try:\n        yield 1\n    finally:\n        print('cleanup')\n"
        "kept = g()\nnext(kept)\nfreed = g()\nnext(freed)\ndel freed\nprint('end')\n"
    )
    namespace_holder = run_source(source, "s.py", stdout=out)
    assert out.getvalue() == "cleanup\nend\n"  # `del` inside the script closes it, as Python
    del namespace_holder
    gc.collect()
    assert out.getvalue() == "cleanup\nend\n"


def test_dir_lists_only_what_a_script_may_read() -> None:
    out = run(
        "import torch\nclass P:\n    def __init__(self):\n        self.a = 1\n"
        "    def m(self):\n        return 2\n"
        "print(dir(P()), dir(P))\n"
        "names = dir(torch.ones(1))\n"
        "print('backward' in names, 'grad' in names, 'numpy' in names, any(n.startswith('_') "
        "and n != '_version' for n in names))\n"
        "print('bit_length' in dir(1), [n for n in dir(1) if n.startswith('_')])\n"
        "import math\nprint('nn' in dir(torch), 'sqrt' in dir(math), dir(math.pi)[:2])\n"
        "x = 5\nprint('x' in dir(), 'P' in dir())\n"
    )
    assert out == (
        "['a', 'm'] ['m']\nTrue True False False\nTrue []\nTrue True ['as_integer_ratio', 'conjugate']\n"
        "True True\n"
    )


def test_help_prints_signature_and_docstring() -> None:
    out = run(
        "def area(width, height=2, *, unit='cm'):\n    '''The area.\n\n    Second line.'''\n"
        "    return width * height\nhelp(area)\n"
        "class Box:\n    '''A box.'''\n    def volume(self, depth):\n        '''Its volume.'''\n"
        "help(Box)\nhelp('nothing')\n"
    )
    assert out.startswith(
        "Help on function area in module __main__:\n\n"
        "area(width, height=2, *, unit='cm')\n    The area.\n\n    Second line.\n"
    )
    assert "class Box\n |  A box.\n" in out
    assert " |  volume(self, depth)\n |      Its volume.\n" in out
    assert "No Python documentation found for 'nothing'." in out


def test_help_on_engine_objects_is_short_and_safe() -> None:
    out = run(
        "import torch\nhelp(torch.nn.Linear)\nhelp(torch)\nhelp(torch.ones(2))\n"
        "print(all(hasattr(torch, n) for n in dir(torch)), 'nn' in dir(torch))\n"
    )
    assert "Help on class Linear in module torch:\n\nclass Linear(Module)\n" in out
    assert " |  forward(" in out
    module_part = out.split("Help on module torch:")[1].split("Help on class")[0]
    assert "\n    nn\n" in module_part and "\n    tensor\n" in module_part
    assert "Help on class Tensor in module torch:" in out
    assert " |  backward(" in out and " |  numpy(" not in out
    assert out.endswith("True True\n")


def test_generators_run_in_a_locked_down_child(tmp_path: Path) -> None:
    path = tmp_path / "gen.py"
    path.write_text(
        "def g():\n    total = yield 0\n    while True:\n        total += yield total\n"
        "it = g()\nnext(it)\nprint([it.send(v) for v in (1, 2, 3)], dir(it))\n"
        "help(g)\n",
        encoding="utf-8",
    )
    environment = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(path)],
        capture_output=True, text=True, env=environment, timeout=120, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "[1, 3, 6] ['close', 'send', 'throw']\nHelp on function g in module __main__:\n\ng()\n"
    )


def test_script_errors_are_script_errors() -> None:
    with pytest.raises(ScriptError):
        run("def g():\n    yield\nnext(g())\nnext(g(), 1, 2)\n")


def test_generator_bodies_are_compiled_once_not_walked_per_resume(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    program = compile_source(
        "def g(n):\n    for i in range(n):\n        x = yield i if i % 2 else (yield -i)\n"
        "        print('got', x)\nit = g(4)\nprint(next(it), it.send('a'), it.send('b'))\n"
        "print(list(it))\n",
        "s.py",
        "exec",
    )

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tree was compiled again while the script ran")

    for name in ("statement", "generator_statement", "expr", "condition", "_yield_step"):
        monkeypatch.setattr(Compiler, name, refuse)
    out = io.StringIO()
    namespace = new_namespace()
    namespace.stdout = out
    program.run(namespace)
    assert out.getvalue() == python_output(
        "def g(n):\n    for i in range(n):\n        x = yield i if i % 2 else (yield -i)\n"
        "        print('got', x)\nit = g(4)\nprint(next(it), it.send('a'), it.send('b'))\n"
        "print(list(it))\n"
    )
