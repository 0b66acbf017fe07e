"""The learner's experience (issue 32), as a user runs the CLI: Python's own message for what
does not exist, "not available in scripts (why)" for what is withheld, a teaching hint after
PyTorch's message (off with --no-hints or `:hints off`), the script call stack, carets under
wide characters, `grad`'s notes, and the tool's own words in English and Simplified Chinese."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from cli_runner import terminal
from cli_runner import warm_autodiff as run_cli  # a fork of a warm CLI: see cli_runner

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "autodiff_cli"


def autodiff(*args: str, cwd: Path, lang: str | None = None, stdin: str = ""):
    """The CLI in locale `lang` (C.UTF-8 by default), without colours."""
    return run_cli(*args, cwd=cwd, lang=lang or "C.UTF-8", stdin=stdin, NO_COLOR="1")


# One batch: each script is one classic mistake; the expected report follows its source.
MISTAKES = {
    "none_grad_no_requires.py": (
        "import torch\nx = torch.ones(2)\nx.grad.zero_()\n",
        "none_grad_no_requires.py:3:8: error\n    x.grad.zero_()\n           ^\n"
        "AttributeError: 'NoneType' object has no attribute 'zero_'\n"
        "hint: x.grad is None because x does not require grad: create it with "
        "requires_grad=True (or call x.requires_grad_() before using it)\n",
    ),
    "none_grad_no_backward.py": (
        "import torch\nw = torch.ones(2, requires_grad=True)\nprint(w.grad * 2)\n",
        "none_grad_no_backward.py:3:7: error\n    print(w.grad * 2)\n          ^\n"
        "TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'\n"
        "hint: w.grad is None because no backward() has reached w yet: call backward() on a "
        "result computed from w first (zero_grad() also sets .grad back to None)\n",
    ),
    "none_grad_not_leaf.py": (
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 3\n"
        "y.sum().backward()\ny.grad.zero_()\n",
        "none_grad_not_leaf.py:5:8: error\n    y.grad.zero_()\n           ^\n"
        "AttributeError: 'NoneType' object has no attribute 'zero_'\n"
        "hint: y.grad is None because y is not a leaf (it was computed: its grad_fn is "
        "MulBackward0): PyTorch keeps .grad only for leaves; call y.retain_grad() before "
        "backward() to keep it\n",
    ),
    "typo.py": (
        "import torch\ny = torch.ones(2, requires_grad=True).sum()\ny.backwrd()\n",
        "typo.py:3:3: error\n    y.backwrd()\n      ^\n"
        "AttributeError: 'Tensor' object has no attribute 'backwrd'. Did you mean: 'backward'?\n",
    ),
    "twice.py": (
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n"
        "y.backward()\ny.backward()\n",
        "twice.py:5:1: error\n    y.backward()\n    ^\n"
        "RuntimeError: Trying to backward through the graph a second time (or directly access "
        "saved tensors after they have already been freed). Saved intermediate values of the "
        "graph are freed when you call .backward() or autograd.grad(). Specify "
        "retain_graph=True if you need to backward through the graph a second time or if you "
        "need to access saved tensors after calling backward.\n"
        "hint: the first backward() freed the values the graph saved: compute the result again "
        "(run the forward pass) before each backward(), or pass retain_graph=True to the first "
        "backward() if you really need the same graph twice\n",
    ),
    "in_place_leaf.py": (
        "import torch\nw = torch.ones(2, requires_grad=True)\nw -= 0.1\n",
        "in_place_leaf.py:3:1: error\n    w -= 0.1\n    ^\n"
        "RuntimeError: a leaf Variable that requires grad is being used in an in-place "
        "operation.\n"
        "hint: a leaf that requires grad cannot be changed in place while autograd records: "
        "update it inside `with torch.no_grad():` (as an optimizer's step does), e.g. "
        "`with torch.no_grad(): w -= lr * w.grad`\n",
    ),
    "vector_backward.py": (
        "import torch\nx = torch.ones(3, requires_grad=True)\n(x * 2).backward()\n",
        "vector_backward.py:3:1: error\n    (x * 2).backward()\n    ^\n"
        "RuntimeError: grad can be implicitly created only for scalar outputs\n"
        "hint: backward() with no argument needs a single number (a loss): reduce the result "
        "first, y.sum().backward(), or pass the vector of the vector-Jacobian product, "
        "y.backward(torch.ones_like(y))\n",
    ),
    "numpy_of_graph.py": (
        "import torch\nx = torch.ones(3, requires_grad=True)\nx.numpy()\n",
        "numpy_of_graph.py:3:1: error\n    x.numpy()\n    ^\n"
        "RuntimeError: Can't call numpy() on Tensor that requires grad. Use "
        "tensor.detach().numpy() instead.\n"
        "hint: the tensor is part of an autograd graph; .detach() gives the same values outside "
        "it, x.detach().numpy() (and .tolist() or .item() work as they are)\n",
    ),
    "matmul.py": (
        "import torch\na = torch.ones(3)\nb = torch.ones(2, 3)\nc = a @ b\n",
        "matmul.py:4:5: error\n    c = a @ b\n        ^\n"
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x3 and 2x3)\n"
        "hint: in A @ B, the last size of A must equal the second-to-last size of B (its first, "
        "when B is a matrix); here A has shape (3,) and B has shape (2, 3): B.T, B.mT or a "
        "reshape may be what you meant\n",
    ),
    "withheld.py": (
        "import time\n",
        "withheld.py:1:1: error\n    import time\n    ^\n"
        "ModuleNotFoundError: module 'time' is not available in scripts (scripts are not given "
        "the clock or sleep)\n",
    ),
    "wide.py": (
        'import torch\nx = torch.ones(1)\nprint("梯度是多少", x.gard)\n',
        # the caret under `gard`: 5 Chinese characters take 10 columns on a terminal
        'wide.py:3:18: error\n    print("梯度是多少", x.gard)\n' + " " * 26 + "^\n"
        "AttributeError: 'Tensor' object has no attribute 'gard'\n",
    ),
    "deep.py": (
        "import torch\n\ndef layer(x, w):\n    return x @ w\n\ndef main():\n"
        "    return layer(torch.ones(2, 3), torch.ones(2, 3))\n\nmain()\n",
        "deep.py:4:12: error\n        return x @ w\n               ^\n"
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)\n"
        "Script call stack (most recent call last):\n"
        "  deep.py:9 in <module>\n    main()\n"
        "  deep.py:7 in main\n    return layer(torch.ones(2, 3), torch.ones(2, 3))\n"
        "  deep.py:4 in layer\n    return x @ w\n"
        "hint: in A @ B, the last size of A must equal the second-to-last size of B (its first, "
        "when B is a matrix); here A has shape (2, 3) and B has shape (2, 3): B.T, B.mT or a "
        "reshape may be what you meant\n",
    ),
}


@pytest.fixture(scope="module")
def mistakes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mistakes")
    for name, (source, _) in MISTAKES.items():
        (folder / name).write_text(source, encoding="utf-8")
    return folder


def _reports(stderr: str) -> dict[str, str]:
    """Each script's report in a batch's stderr (the summary line dropped)."""
    reports: dict[str, str] = {}
    current = None
    for line in stderr.splitlines(keepends=True):
        head = line.split(":", 1)[0]
        if head in MISTAKES:  # a report starts, or a warning (the non-leaf .grad read) passes
            current = head if line.rstrip().endswith(": error") else None
            if current is not None:
                reports[current] = ""
        elif line.startswith(f"{len(MISTAKES)} scripts:"):
            current = None
        if current is not None:
            reports[current] += line
    return reports


def test_each_classic_mistake_gets_pythons_message_and_a_hint(mistakes: Path):
    done = autodiff("run", *MISTAKES, cwd=mistakes)
    assert done.returncode == 1 and done.stdout == ""
    reports = _reports(done.stderr)
    for name, (_, expected) in MISTAKES.items():
        assert reports.get(name) == expected, name
    assert "Traceback" not in done.stderr


def test_no_hints_keeps_only_the_message(mistakes: Path):
    done = autodiff("run", "--no-hints", *MISTAKES, cwd=mistakes)
    reports = _reports(done.stderr)
    for name, (_, expected) in MISTAKES.items():
        without = "".join(
            line for line in expected.splitlines(keepends=True) if not line.startswith("hint: ")
        )
        assert reports.get(name) == without, name


@pytest.mark.parametrize("how", ["LANG", "--lang"])
def test_the_tools_words_in_chinese_pytorchs_as_they_are(mistakes: Path, how: str):
    args = ("run", "--lang", "zh") if how == "--lang" else ("run",)
    lang = "zh_CN.UTF-8" if how == "LANG" else None
    done = autodiff(*args, "none_grad_no_requires.py", "deep.py", cwd=mistakes, lang=lang)
    assert done.stderr.startswith(
        "none_grad_no_requires.py:3:8: error\n    x.grad.zero_()\n           ^\n"
        "AttributeError: 'NoneType' object has no attribute 'zero_'\n"
        "提示：x.grad 是 None，因为 x 不需要梯度：请用 requires_grad=True 创建它"
        "（或在使用前调用 x.requires_grad_()）\n"
    )
    assert "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)\n" in done.stderr
    assert "脚本调用栈（最近的调用在最后）：\n  deep.py:9 in <module>\n" in done.stderr
    assert done.stderr.endswith(
        "2 个脚本：0 个通过，2 个失败 (none_grad_no_requires.py, deep.py)\n"
    )


def test_grad_says_what_it_cannot_do(tmp_path: Path):
    """`--explain` with a result it cannot walk, a detached expression without --wrt, a trailing
    comma in --at and non-ASCII names in a comma list, in both languages."""
    cases = [
        (("grad", "sin(x)", "--at", "x=[0,1]", "--explain"), 0,
         "note: --explain walks one backward pass of a scalar result (or of --vjp); it is not "
         "shown here: the result is not a scalar, so its Jacobian is computed row by row\n"),
        (("grad", "x**3", "--at", "x=2", "--hessian", "--explain"), 0,
         "note: --explain walks one backward pass of a scalar result (or of --vjp); it is not "
         "shown here: --hessian differentiates twice\n"),
        (("grad", "x**3", "--at", "x=2", "--order", "2", "--explain"), 0,
         "note: --explain walks one backward pass of a scalar result (or of --vjp); it is not "
         "shown here: --order differentiates several times\n"),
        (("grad", "x.detach()*2", "--at", "x=3"), 1,
         "autodiff grad: error: the result does not depend on the --at variables through "
         "anything differentiable (detach(), torch.no_grad() or a conversion to a number cut "
         "it off): nothing to differentiate\n"),
        (("grad", "x.detach()*y", "--at", "x=3,y=2", "--wrt", "x"), 1,
         "autodiff grad: error: the result does not depend on any --wrt variable: nothing to "
         "differentiate\n"),
        (("grad", "x*2", "--at", "x=3,"), 2,
         "autodiff grad: error: --at 'x=3,': a trailing comma would make a 1-element vector; "
         "write x=[3] for a vector, or drop the comma\n"),
        (("grad", "权重*输入", "--at", "权重=2,输入=3"), 0, ""),
        (("grad", "x*θ", "--at", "x=2,θ=3"), 0, ""),
    ]  # fmt: skip
    for args, status, stderr in cases:
        done = autodiff(*args, cwd=tmp_path)
        assert (done.returncode, done.stderr) == (status, stderr), args
    done = autodiff("grad", "权重*输入", "--at", "权重=2,输入=3", cwd=tmp_path)
    assert "  权重.grad: tensor(3.)\n  输入.grad: tensor(2.)\n" in done.stdout
    done = autodiff("grad", "x.detach()*2", "--at", "x=3", "--lang", "zh", cwd=tmp_path)
    assert done.stderr == (
        "autodiff grad: error: 结果没有通过可微的运算依赖 --at 变量（detach()、torch.no_grad() "
        "或转换成数字切断了计算图）：没有可求导的东西\n"
    )


def test_repl_hints_switch_off_and_on_in_chinese(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    child = terminal(tmp_path, TERM="dumb", LANG="zh_CN.UTF-8", NO_COLOR="1")
    try:
        child.expect(">>> ")
        child.sendline("x = torch.ones(2)")
        child.expect(">>> ")
        child.sendline("x.grad.zero_()")
        child.expect("AttributeError: 'NoneType' object has no attribute 'zero_'")
        child.expect("提示：x.grad 是 None，因为 x 不需要梯度")
        child.expect(">>> ")
        child.sendline(":hints off")
        child.expect("提示已关闭")
        child.expect(">>> ")
        child.sendline("x.grad.zero_()")
        child.expect("AttributeError: 'NoneType' object has no attribute 'zero_'")
        child.expect(">>> ")
        assert "提示：" not in child.before
        child.sendline(":hints on")
        child.expect("提示已打开")
        child.expect(">>> ")
        child.sendline(":quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_piped_repl_without_hints():
    done = autodiff(
        "repl", "--no-hints", cwd=REPO, stdin="x = torch.ones(2)\nx.grad.zero_()\n:hints\n"
    )
    assert done.stdout == "hints are off\n"
    assert done.stderr.endswith("AttributeError: 'NoneType' object has no attribute 'zero_'\n")


# ---- the catalogue ---------------------------------------------------------------------------


GETTEXT_NAMES = re.compile(r"(?<![\w.])_N?(?!\w)")  # the name `_` or `_N`, alone


def _marked_messages() -> set[str]:
    """Every string the package passes to gettext (`_`) or marks for it (`_N`)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if not GETTEXT_NAMES.search(source):  # no name `_` nor `_N`: no call of either
            continue
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "_N")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_every_message_has_a_chinese_translation_and_the_mo_is_current():
    from autodiff_cli import catalogues

    po, mo = catalogues.catalogue_paths("zh_CN")
    entries = catalogues.read_po(po.read_text(encoding="utf-8"))
    missing = sorted(_marked_messages() - set(entries))
    assert not missing, f"untranslated (add them to {po.name}): {missing}"
    assert mo.read_bytes() == catalogues.compile_mo(entries), "run: python -m autodiff_cli.i18n"
    for key, value in entries.items():
        if key:
            assert sorted(_fields(key)) == sorted(_fields(value)), key


def _fields(text: str) -> list[str]:
    import string

    return [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]


def test_graph_names_the_tensors_and_takes_the_format_from_the_extension(tmp_path: Path):
    script = tmp_path / "g.py"
    script.write_text(
        "import torch\nw = torch.ones(2, requires_grad=True)\nloss = (w * w).sum()\nn = 3\n",
        encoding="utf-8",
    )
    done = autodiff("graph", "--file", "g.py", "--var", "los", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        1,
        "autodiff graph: error: g.py defines no variable 'los'. Did you mean: 'loss'?\n",
    )
    done = autodiff("graph", "--file", "g.py", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "autodiff graph: error: --file needs --var NAME, one of the tensors g.py defines: "
        "loss, w\n",
    )
    done = autodiff("graph", "--file", "g.py", "--lang", "zh", cwd=tmp_path)
    assert done.stderr == (
        "autodiff graph: error: --file 需要 --var NAME，取 g.py 定义的张量之一：loss, w\n"
    )
    done = autodiff("graph", "--file", "g.py", "--var", "loss", "-o", "g.dot", cwd=tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "g.dot").read_text(encoding="utf-8").startswith("digraph autograd {\n")
    done = autodiff("graph", "--file", "g.py", "--var", "loss", "-o", "g.txt", cwd=tmp_path)
    assert (tmp_path / "g.txt").read_text(encoding="utf-8").startswith("SumBackward0")


def test_grad_quiet_prints_only_the_derivatives(tmp_path: Path):
    done = autodiff("grad", "x**2*y", "--at", "x=3,y=2", "-q", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "x.grad: tensor(12.)\ny.grad: tensor(9.)\n",
        "",
    )
    done = autodiff("grad", "sin(x)", "--at", "x=[0,1]", "--quiet", cwd=tmp_path)
    assert done.stdout == (
        "d result/d x [2, 2]: tensor([[1.0000, 0.0000],\n"
        "                             [0.0000, 0.5403]])\n"
    )
