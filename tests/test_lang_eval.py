"""The language evaluates Python's constructs as Python does (no engine needed)."""

from __future__ import annotations

import contextlib
import io
import random

import pytest
from script_runner import run

from autodiff_cli.lang import ScriptError, Session, compile_source, new_namespace


def value(expression: str):
    return Session().execute(expression)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("2 ** 3 ** 2", 512),
        ("2 ^ 3 ^ 2", 512),
        ("-2 ** 2", -4),
        ("2 ** -1", 0.5),
        ("7 // 2, 7 % 3, -7 // 2", (3, 1, -4)),
        ("1e-3", 0.001),
        ("0x10 + 0b11 + 0o7 + 1_000", 1026),
        ("1 < 2 < 3, 3 > 2 > 5", (True, False)),
        ("1 in [1], 2 not in [1], None is None, 1 is not None", (True, True, True, True)),
        ("0 or 'a', 1 and 0, not 0", ("a", 0, True)),
        ("'y' if 0 else 'n'", "n"),
        ("~5, +3, -(-3)", (-6, 3, 3)),
        ("6 & 3, 6 | 3, 1 << 3, 16 >> 2", (2, 7, 8, 4)),
        ("[1, 2][::-1], (1, 2, 3)[1:], 'abcdef'[1:5:2]", ([2, 1], (2, 3), "bd")),
        ("{'a': 1, **{'b': 2}}", {"a": 1, "b": 2}),
        ("{1, 2} | {3}", {1, 2, 3}),
        ("[*range(2), *'ab']", [0, 1, "a", "b"]),
        ("[x * x for x in range(5) if x % 2 if x > 1]", [9]),
        ("[(x, y) for x in range(2) for y in range(x)]", [(1, 0)]),
        ("{k: v for k, v in zip('ab', range(2))}", {"a": 0, "b": 1}),
        ("{x % 3 for x in range(10)}", {0, 1, 2}),
        ("sum(x for x in range(5))", 10),
        ("(lambda a, *b, c=2, **d: (a, b, c, d))(1, 2, c=3, e=4)", (1, (2,), 3, {"e": 4})),
        ("'a' 'b' \"c\"", "abc"),
        ("'''x\ny'''", "x\ny"),
        ("'tab\\there' + r'\\n'", "tab\there\\n"),
        ("f'{1 + 1} {\"q\"!r} {3.14159:.2f} {{}}'", "2 'q' 3.14 {}"),
        ("f'{\"x\":>{2 + 1}}'", "  x"),
        ("f'{1+1=}'", "1+1=2"),
        ("'{} {:>3}'.format(1, 2)", "1   2"),
        ("'a,b'.split(',')", ["a", "b"]),
        ("type(1).__name__", "int"),
        ("isinstance(True, int), hasattr('', 'upper')", (True, True)),
        ("divmod(7, 2), pow(2, 10), round(2.567, 2), abs(-3)", ((3, 1), 1024, 2.57, 3)),
        ("sorted([3, 1, 2], reverse=True), list(reversed([1, 2]))", ([3, 2, 1], [2, 1])),
        ("list(map(lambda x: x + 1, [1])), list(filter(None, [0, 1]))", ([2], [1])),
        ("any([0, 1]), all([]), min(3, 1), max([1, 5]), len('abc')", (True, True, 1, 5, 3)),
        (
            "next(iter([7])), repr('x'), str(1), float('1.5'), int('7'), bool([])",
            (7, "'x'", "1", 1.5, 7, False),
        ),  # fmt: skip
        ("list(enumerate('ab', 1))", [(1, "a"), (2, "b")]),
        ("x = [1]; x[0] = 5; x", [5]),
        ("a = b = 2; a + b", 4),
        ("x, (y, z) = 1, (2, 3); x + y + z", 6),
        ("a, *b, c = range(5); b", [1, 2, 3]),
        ("pi", None),
    ],
)
def test_expressions(expression: str, expected: object) -> None:
    if expected is None:
        with pytest.raises(ScriptError, match="NameError: name 'pi' is not defined"):
            value(expression)
        return
    assert value(expression) == expected


def test_augmented_assignment_is_in_place() -> None:
    session = Session()
    session.execute("a = [1]; b = a; a += [2]; n = 1; n += 2")
    assert session.namespace["b"] == [1, 2]
    assert session.execute("n") == 3


def test_augmented_assignment_on_attribute_and_item() -> None:
    source = """
class Box:
    pass
b = Box()
b.v = 1
b.v *= 5
d = {'k': 2}
d['k'] **= 3
print(b.v, d['k'])
"""
    assert run(source) == "5 8\n"


def test_control_flow() -> None:
    source = """
for i in range(10):
    if i == 1:
        continue
    elif i == 4:
        break
    print(i)
else:
    print('not reached')
n = 0
while n < 3:
    n += 1
else:
    print('while else', n)
for i in []:
    pass
else:
    print('for else')
"""
    assert run(source) == "0\n2\n3\nwhile else 3\nfor else\n"


def test_functions_defaults_keywords_and_errors() -> None:
    source = """
def f(a, b=2, *args, c, d=4, **kw):
    '''doc'''
    return a, b, args, c, d, kw
print(f(1, c=3))
print(f(1, 2, 3, c=0, z=9))
print(f.__name__, f.__doc__)
try:
    f()
except TypeError as e:
    print(e)
try:
    f(1, 2, c=1, b=3)
except TypeError as e:
    print(e)
def g(x):
    return x
try:
    g(1, 2)
except TypeError as e:
    print(e)
"""
    assert run(source).splitlines() == [
        "(1, 2, (), 3, 4, {})",
        "(1, 2, (3,), 0, 4, {'z': 9})",
        "f doc",
        "f() missing 1 required positional argument: 'a'",
        "f() got multiple values for argument 'b'",
        "g() takes 1 positional argument but 2 were given",
    ]


def test_scoping_closures_global_nonlocal() -> None:
    source = """
x = 'global'
def outer():
    x = 'enclosing'
    def inner():
        return x
    return inner
print(outer()())
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
c(); print(c())
def set_global():
    global x
    x = 'changed'
set_global()
print(x)
def local_before_assignment():
    print(x)
    x = 1
try:
    local_before_assignment()
except UnboundLocalError as e:
    print(type(e).__name__)
adders = [lambda v, i=i: v + i for i in range(3)]
print([a(10) for a in adders])
print([i for i in range(3)], 'ok')
"""
    assert run(source).splitlines() == [
        "enclosing",
        "2",
        "changed",
        "UnboundLocalError",
        "[10, 11, 12]",
        "[0, 1, 2] ok",
    ]


def test_comprehension_variables_do_not_leak() -> None:
    with pytest.raises(ScriptError, match="NameError: name 'leak' is not defined"):
        run("[leak for leak in range(3)]\nprint(leak)")


def test_classes_inheritance_super_decorators() -> None:
    source = """
def twice(fn):
    def wrapper(*args):
        return 2 * fn(*args)
    return wrapper
class Base:
    '''A base.'''
    scale = 10
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v * Base.scale
    @staticmethod
    def s(x):
        return x + 1
    @classmethod
    def make(cls, v):
        return cls(v)
    @property
    def double(self):
        return self.v * 2
class Child(Base):
    def __init__(self, v):
        super().__init__(v + 1)
    @twice
    def get(self):
        return super().get()
    def __repr__(self):
        return f'Child({self.v})'
c = Child.make(1)
print(c.get(), Child.s(1), c.double, type(c).__name__, Base.__doc__, c)
print(isinstance(c, Base), repr(c))
class MyError(ValueError):
    pass
try:
    raise MyError('bad')
except ValueError as e:
    print(type(e).__name__, e)
"""
    assert run(source).splitlines() == [
        "40 2 4 Child A base. Child(2)",
        "True Child(2)",
        "MyError bad",
    ]


def test_try_except_else_finally_and_raise() -> None:
    source = """
def f(kind):
    try:
        if kind == 1:
            raise KeyError('k')
        if kind == 2:
            raise ValueError
        out = 'ok'
    except KeyError as e:
        out = 'key ' + str(e)
    except (TypeError, ValueError):
        out = 'value'
    else:
        out += ' else'
    finally:
        print('finally', kind)
    return out
print(f(0), f(1), f(2))
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise
except ArithmeticError as e:
    print('reraised', e)
try:
    e
except NameError:
    print('except name removed')
def g():
    try:
        return 'try'
    finally:
        print('cleanup')
print(g())
try:
    raise RuntimeError('x') from ValueError('y')
except RuntimeError as e:
    print(e)
"""
    assert run(source).splitlines() == [
        "finally 0",
        "finally 1",
        "finally 2",
        "ok else key 'k' value",
        "reraised division by zero",
        "except name removed",
        "cleanup",
        "try",
        "x",
    ]


def test_with_statement_several_items() -> None:
    source = """
class Ctx:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print('enter', self.name)
        return self.name
    def __exit__(self, kind, value, tb):
        print('exit', self.name, kind is not None)
        return self.name == 'swallow'
with Ctx('a') as a, Ctx('b') as b:
    print(a, b)
with Ctx('swallow'):
    raise ValueError('hidden')
print('after')
"""
    assert run(source).splitlines() == [
        "enter a", "enter b", "a b", "exit b False", "exit a False",
        "enter swallow", "exit swallow True", "after",
    ]  # fmt: skip


def test_del_assert_pass_and_main_guard() -> None:
    source = """
x = 1
del x
try:
    x
except NameError as e:
    print(e)
try:
    assert 1 == 2, 'numbers differ'
except AssertionError as e:
    print('assert', e)
if __name__ == "__main__":
    pass
    print('main')
"""
    assert run(source).splitlines() == [
        "name 'x' is not defined", "assert numbers differ", "main",
    ]  # fmt: skip


def test_math_imports() -> None:
    assert (
        run("import math\nfrom math import pi as p, sqrt\nprint(math.floor(p), sqrt(9.0))")
        == "3 3.0\n"
    )


def test_unknown_module_is_a_located_error() -> None:
    with pytest.raises(ScriptError) as info:
        run("x = 1\nimport os\n")
    error = info.value
    assert (error.line, error.column, error.type_name) == (2, 1, "ModuleNotFoundError")
    assert error.message == (
        "module 'os' is not available in scripts "
        "(scripts cannot reach the operating system, processes or the network)"
    )
    with pytest.raises(ScriptError, match="No module named 'math.nothing'"):
        run("import math.nothing")
    with pytest.raises(ScriptError, match="cannot import name 'nothing' from 'math'"):
        run("from math import nothing")


def test_session_returns_trailing_expression_value() -> None:
    session = Session()
    assert session.execute("a = 2") is None
    assert session.execute("a = a * 2; a + 1") == 5
    assert session.execute("a") == 4
    assert session.execute("def f():\n    return 1\n") is None


def test_session_is_complete() -> None:
    session = Session()
    assert session.is_complete("x = 1\n")
    assert not session.is_complete("x = (1,\n")
    assert not session.is_complete("for i in range(3):\n")
    assert session.is_complete("for i in range(3):\n    print(i)\n\n")
    assert not session.is_complete("s = '''abc\n")
    assert not session.is_complete("x = 1 + \\\n")
    assert session.is_complete("x = 1 +* 2\n")  # complete, and wrong: the error is reported


def test_compile_once_run_many_times() -> None:
    program = compile_source("n = n + 1", "p.py")
    namespace = new_namespace()
    namespace["n"] = 0
    for _ in range(3):
        program.run(namespace)
    assert namespace["n"] == 3


def test_eval_mode() -> None:
    assert compile_source("1 + 2", "e", mode="eval").run(new_namespace()) == 3


def test_script_functions_are_plain_callables() -> None:
    session = Session()
    session.execute("def hook(g):\n    return g * 2\nsquare = lambda v: v * v")
    assert session.namespace["hook"](21) == 42
    assert session.namespace["square"](3) == 9
    assert callable(session.namespace["hook"])


def test_recursion_limit_is_a_catchable_recursion_error() -> None:
    source = """
def down(n):
    return down(n + 1)
try:
    down(0)
except RecursionError as e:
    print(e)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(300) > 0)
"""
    assert run(source) == "maximum recursion depth exceeded\nTrue\n"


@pytest.mark.parametrize(
    ("source", "type_name"),
    [
        ("10 ** 10 ** 10", "OverflowError"),
        ("pow(10, 10 ** 10)", "OverflowError"),
        ("[0] * 10 ** 10", "MemoryError"),
        ("'ab' * 10 ** 10", "MemoryError"),
        ("range(10 ** 12)", "MemoryError"),
    ],
)
def test_resource_limits(source: str, type_name: str) -> None:
    with pytest.raises(ScriptError) as info:
        run(source)
    assert info.value.type_name == type_name


TRUTH_PRELUDE = """
class B:
    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __bool__(self):
        print('bool', self.name)
        return self.value

    def __lt__(self, other):
        print('lt', self.name, other.name)
        return B(self.name + '<' + other.name, self.value < other.value)

    def __repr__(self):
        return self.name

t, f, u = B('t', True), B('f', False), B('u', True)
"""

TRUTH_CONTEXTS = [
    "print('value', {e})",
    "if {e}:\n    print('then')\nelse:\n    print('else')",
    "if f:\n    pass\nelif {e}:\n    print('elif')",
    "print('ternary', 1 if {e} else 2)",
    "print('filter', [i for i in range(2) if {e}])",
    "n = 0\nwhile {e}:\n    n += 1\n    if n == 2:\n        break\nprint('while', n)",
    "try:\n    assert {e}, 'message'\n    print('assert passed')\nexcept AssertionError as error:\n"
    "    print('assert failed', error)",
    "print('not', not ({e}))",
]


def _truth_expression(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["t", "f", "u"])
    kind = rng.choice(["or", "and", "not", "chain", "paren", "ternary"])
    if kind in ("or", "and"):
        parts = [_truth_expression(rng, depth - 1) for _ in range(rng.randint(2, 3))]
        return f" {kind} ".join(parts)
    if kind == "not":
        return f"not {_truth_expression(rng, depth - 1)}"
    if kind == "chain":
        return " < ".join(rng.choice(["t", "f", "u"]) for _ in range(rng.randint(2, 4)))
    if kind == "ternary":
        body, test, orelse = (_truth_expression(rng, depth - 1) for _ in range(3))
        return f"({body} if {test} else {orelse})"
    return f"({_truth_expression(rng, depth - 1)})"


def test_truth_is_tested_where_and_as_often_as_python_does() -> None:
    """`and`/`or`/`not`/chained comparisons in every test position: the same bool() and
    comparison calls, in the same order, and the same values as Python itself."""
    rng = random.Random(18)
    sources = [
        TRUTH_PRELUDE + context.format(e=_truth_expression(rng, 3))
        for _ in range(60)
        for context in TRUTH_CONTEXTS
    ]
    for source in sources:
        expected = io.StringIO()
        with contextlib.redirect_stdout(expected):
            exec(compile(source, "t.py", "exec"), {})  # noqa: S102 - Python is the reference
        assert run(source) == expected.getvalue(), source


@pytest.mark.parametrize(
    ("source", "printed"),
    [
        ("print(None or [1, 2])", "[1, 2]"),
        ("print([] or {})", "{}"),
        ("print(1 and [])", "[]"),
        ("h = lambda g: print(g) or g * 2\nprint(h(3))", "3\n6"),
        ("print(0 or 0.0 or '')", ""),
    ],
)
def test_or_and_return_the_operand_itself(source: str, printed: str) -> None:
    assert run(source) == printed + "\n"


class _NoTruth:
    """Stands for a tensor of several elements: it has no truth value."""

    def __bool__(self) -> bool:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")


@pytest.mark.parametrize(
    ("source", "result"),
    [
        ("None or x", "x"),
        ("0 or [] or x", "x"),
        ("1 and x", "x"),
        ("True and 1 and x", "x"),
        ("x if 1 < 2 < 3 else 0", "x"),
        ("(0 and 1) or x", "x"),
        ("x if True else 0", "x"),
        ("1 and [x][0]", "x"),
    ],
)
def test_the_returned_operand_is_not_tested(source: str, result: str) -> None:
    namespace = new_namespace()
    namespace["x"] = marker = _NoTruth()
    assert compile_source(source, mode="eval").run(namespace) is marker


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ("y = 0\ny = x or 1", 2, 5),
        ("y = 0\nif 1 and x:\n    pass", 2, 4),
        ("y = 0\nwhile not x:\n    pass", 2, 7),
        ("y = 0\nz = [i for i in [1] if i < 2 and x]", 2, 24),
        ("y = 0\nz = (1 if (0 or x) else 2)", 2, 12),
    ],
)
def test_an_operand_without_truth_value_is_a_located_error(
    source: str, line: int, column: int
) -> None:
    namespace = new_namespace()
    namespace["x"] = _NoTruth()
    with pytest.raises(ScriptError) as caught:
        compile_source(source, "t.py").run(namespace)
    error = caught.value
    assert (error.type_name, error.line, error.column) == ("RuntimeError", line, column)
    assert error.message == "Boolean value of Tensor with more than one value is ambiguous"
