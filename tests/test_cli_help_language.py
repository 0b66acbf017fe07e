"""The tool's words in Simplified Chinese (issue 32), as a user runs it: every command's --help
(Typer's and Click's words too), the REPL's banner, `:help`, its messages and the docstrings
help() shows, chosen by LANG/LC_ALL/LANGUAGE=zh_CN or --lang zh; English otherwise. PyTorch's
and Python's messages stay as they print them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import REPO
from cli_runner import warm_autodiff as run_cli  # a fork of a warm CLI: see cli_runner

from autodiff_cli import catalogues

COMMANDS = ([], ["run"], ["grad"], ["graph"], ["repl"], ["doctor"], ["kernel", "install"])


def autodiff(*args: str, lang: str = "C.UTF-8", stdin: str = "", cwd: Path = REPO, **env: str):
    """The CLI in locale `lang`, without colours, 100 columns wide."""
    env = {"NO_COLOR": "1", "COLUMNS": "100", **env}
    return run_cli(*args, lang=lang, stdin=stdin, cwd=cwd, **env)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "autodiff")
def test_help_of_every_command_in_chinese_from_the_environment(command: list[str]):
    done = autodiff(*command, "--help", lang="zh_CN.UTF-8")
    assert done.returncode == 0, done.stderr
    assert "用法： autodiff" in done.stdout
    assert "选项" in done.stdout and "显示本帮助并退出。" in done.stdout
    assert "Show this message" not in done.stdout


def test_help_follows_lang_option_before_typer_prints_it():
    chinese = autodiff("grad", "--help", "--lang", "zh")
    assert "在 --at 给出的点上对 EXPR 求导： 值、 grad_fn 计算图和导数。" in chinese.stdout
    assert "只对这些 --at 变量求导。" in chinese.stdout
    english = autodiff("grad", "--lang=en", "--help", lang="zh_CN.UTF-8")
    assert "Differentiate EXPR at the point given by --at" in english.stdout
    assert "Usage: autodiff grad" in english.stdout
    assert "用法" not in english.stdout
    for variable in ("LANGUAGE", "LC_ALL"):
        done = autodiff("repl", "--help", **{variable: "zh_CN.UTF-8"})
        assert "启动 REPL" in done.stdout, variable


def test_usage_errors_in_chinese():
    done = autodiff("grad", "x", "--bogus", lang="zh_CN.UTF-8")
    assert done.returncode == 2
    assert "没有选项 '--bogus'。" in done.stderr
    assert "运行 'autodiff grad -h' 查看帮助。" in done.stderr


def test_every_help_string_has_a_translation():
    """Each command's help, epilog and options' help, as Typer holds them (new ones included:
    the catalogue in locale/zh_CN must translate them)."""
    code = (
        "import typer.main, json\n"
        "from autodiff_cli.cli.commands import app\n"
        "from autodiff_cli.cli.help_language import help_strings\n"
        "print(json.dumps(help_strings(typer.main.get_command(app))))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    entries = catalogues.read_po(catalogues.catalogue_paths("zh_CN")[0].read_text(encoding="utf-8"))
    missing = [text for text in json.loads(done.stdout) if not entries.get(text)]
    assert not missing, f"add to autodiff.po: {missing}"


def test_piped_repl_says_its_words_in_chinese_and_pytorchs_as_they_are(tmp_path: Path):
    done = autodiff(
        "repl",
        lang="zh_CN.UTF-8",
        cwd=tmp_path,
        stdin="x = torch.ones(2, requires_grad=True)\n:help\nx.backward?\n:vars\n:graph x svg\n"
        ":nope\nx.backward()\n:reset\n",
    )
    out, err = done.stdout, done.stderr
    assert "语句像在 Python 中一样运行" in out
    assert "  :doc 名称" not in out and "  :doc NAME" in out  # the commands as typed
    assert "名称的帮助，例如 :doc x.backward" in out
    assert "backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)\n" in out
    assert "    计算这个张量对其计算图中各叶子的梯度" in out
    assert any(line.split()[:3] == ["名称", "值", "shape"] for line in out.splitlines())
    assert "命名空间已重新开始" in out
    assert ":graph: 用法：:graph 名称 svg 文件" in err
    assert "未知命令 :nope（:help 列出所有命令）" in err
    assert "RuntimeError: grad can be implicitly created only for scalar outputs" in err


def test_help_in_a_script_in_chinese(tmp_path: Path):
    script = tmp_path / "h.py"
    script.write_text("import torch\nhelp(torch.no_grad)\nhelp(torch.cosh)\n", encoding="utf-8")
    done = autodiff("run", str(script), "--lang", "zh")
    assert done.returncode == 0, done.stderr
    assert " |  一个上下文（with torch.no_grad():）或装饰器" in done.stdout
    assert "（这里没有说明：它的行为与 PyTorch 相同，请查阅 PyTorch 的文档）" in done.stdout


def test_terminal_banner_in_chinese(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "LANG")}
    env.update(PYTHONPATH=str(REPO), TERM="dumb", LANGUAGE="zh_CN", NO_COLOR="1")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    child = pexpect.spawn(
        sys.executable, ["-m", "autodiff_cli"], cwd=str(tmp_path), env=env, encoding="utf-8",
        timeout=90,
    )  # fmt: skip
    try:
        child.expect_exact("REPL：基于 numpy 的 PyTorch autograd；已导入 `torch`。")
        child.expect_exact("Ctrl-D 退出，Ctrl-C 取消，Tab 补全，:help 列出所有命令。")
        child.expect(">>> ")
        child.sendline("y = torch.ones(2).backwrd")
        child.expect_exact("AttributeError: 'Tensor' object has no attribute 'backwrd'. "
                           "Did you mean: 'backward'?")  # fmt: skip
        child.expect(">>> ")
        child.sendline(":quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_explain_in_chinese_and_english():
    chinese = autodiff("grad", "x*x+3*x", "--at", "x=2", "--explain", lang="zh_CN.UTF-8")
    assert chinese.returncode == 0, chinese.stderr
    assert "反向传播，逐步进行（起点：∂out/∂out = 1.）：" in chinese.stdout
    assert "[2] MulBackward0 ← 3*x 收到的梯度 = 1." in chinese.stdout
    assert "      ∂out/∂other：常量输入，不传递梯度" in chinese.stdout
    assert "x.grad += 3. 来自 [2] + 2. 来自 [3] + 2. 来自 [3] = 7." in chinese.stdout
    english = autodiff("grad", "x*x+3*x", "--at", "x=2", "--explain")
    assert "backward pass, step by step (seed: ∂out/∂out = 1.):" in english.stdout
    assert "accumulated gradients:\n    x.grad = 7." in english.stdout


@pytest.mark.parametrize("lang", ["C.UTF-8", "zh_CN.UTF-8"])
def test_loading_the_catalogue_leaves_the_environment_alone(lang: str):
    """Only `--lang` sets LANGUAGE (for Click's words): a program importing the package, this
    test suite among them, keeps its environment, and the processes it starts their language."""
    code = "import gettext, os, autodiff_cli.i18n\nprint(os.environ.get('LANGUAGE'))\n"
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(PYTHONPATH=str(REPO), LANG=lang)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout == "None\n", done.stderr


def test_grad_report_headings_in_chinese_its_values_as_pytorch_prints_them():
    done = autodiff("grad", "x*w", "--at", "x=[1,2],w=3", lang="zh_CN.UTF-8")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "值: tensor([3., 6.])"
    assert lines[1] == "grad_fn 计算图："
    assert "雅可比矩阵（结果不是标量：形状为 [2]；每个元素一行）：" in lines
    english = autodiff("grad", "x**2", "--at", "x=3")
    assert english.stdout.splitlines()[:2] == ["value: tensor(9.)", "grad_fn graph:"]
    assert "gradients:" in english.stdout
