"""Every command and output block of README.md runs as shown, so the README cannot drift.

A fenced block is one of:
- `sh`: commands (one a line, `  # comment` allowed); each must exit with status 0.
- a plain block starting with `$ COMMAND`: each command's output (stdout and stderr) follows it,
  compared line by line; a line `...` stands for any number of lines. When the block has `>>> `
  lines it is a REPL session: the inputs (`>>> `, `... `) are piped to the command and the other
  lines are the expected output (the banner line, printed only on a terminal, is skipped).
- a block after `<!-- output-of: COMMAND -->`: the output of COMMAND (a `json` block is compared
  as JSON, numbers within float tolerance).
An HTML comment right before a block can also skip it, with its reason in the README itself:
`<!-- not-run: why -->`, or `<!-- needs: PROGRAM -->` when PROGRAM is not installed. Any other
block fails the test: a README output must say what made it.

Commands run with `NO_COLOR=1` in a temporary directory where `examples/` is the repository's,
with `autodiff` on PATH meaning this checkout.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_runner import warm_autodiff_on_path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
MARKER = re.compile(r"<!--\s*([\w-]+)(?::\s*(.*?))?\s*-->")


@dataclass
class Block:
    line: int  # where the fence opens, 1-based
    language: str
    lines: list[str]
    marker: str | None = None  # not-run, needs, output-of
    argument: str = ""


def readme_blocks(text: str) -> list[Block]:
    blocks = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("```"):
            index += 1
            continue
        block = Block(index + 1, line[3:].strip(), [])
        previous = lines[index - 1].strip() if index else ""
        found = MARKER.fullmatch(previous)
        if found:
            block.marker, block.argument = found.group(1), found.group(2) or ""
        index += 1
        while not lines[index].startswith("```"):
            block.lines.append(lines[index])
            index += 1
        blocks.append(block)
        index += 1
    return blocks


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reader_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of the README's commands: `NO_COLOR=1` and this checkout's `autodiff`
    first on PATH, one that runs each command in a child of a warm CLI process (cli_runner's
    `warm_autodiff_on_path`: the same exit status and output as `python -m autodiff_cli`)."""
    with warm_autodiff_on_path(tmp_path_factory.mktemp("bin"), NO_COLOR="1") as environment:
        yield environment


@pytest.fixture
def shell(tmp_path: Path, reader_environment: dict[str, str]):
    """Run a shell command as a README reader would; returns (status, stdout+stderr)."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "examples").symlink_to(REPO / "examples")
    env = reader_environment

    def run(command: str, stdin: str = "") -> tuple[int, str]:
        done = subprocess.run(
            ["sh", "-c", command],
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=work,
            env=env,
            timeout=300,
        )
        return done.returncode, done.stdout

    return run


def assert_output(expected: list[str], actual: str, command: str) -> None:
    """The actual output matches the expected lines, `...` standing for any lines."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line.rstrip()) + r"\n"
        for line in expected
    )
    text = "".join(line.rstrip() + "\n" for line in actual.splitlines())
    assert re.fullmatch(pattern, text), (
        f"$ {command}\nexpected:\n" + "\n".join(expected) + (f"\nactual:\n{text}")
    )


def _approx(value: object) -> object:
    if isinstance(value, dict):
        return {key: _approx(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_approx(item) for item in value]
    if isinstance(value, float):
        return pytest.approx(value, rel=1e-6, abs=1e-12)
    return value


def _sessions(block: Block) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each `$ ` line of the block."""
    sessions: list[tuple[str, list[str]]] = []
    for line in block.lines:
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            sessions[-1][1].append(line)
    return sessions


def _repl_session(lines: list[str]) -> tuple[str, list[str]]:
    """The piped input and the expected output of a REPL transcript."""
    inputs, expected = [], []
    started = False
    for line in lines:
        if line.startswith((">>> ", "... ")) or line in (">>>", "..."):
            started = True
            inputs.append(line[4:])
        elif started:  # the banner before the first prompt appears only on a terminal
            expected.append(line)
    return "\n".join(inputs) + "\n", expected


def _command_lines(block: Block) -> list[str]:
    commands = []
    for line in block.lines:
        command = line.split("  # ")[0].strip()
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


def test_the_readme_has_blocks_of_every_kind():
    kinds = {block.marker or block.language or "session" for block in BLOCKS}
    assert {"not-run", "needs", "output-of", "sh", "session"} <= kinds
    assert sum(block.lines[:1] and block.lines[0].startswith("$ ") for block in BLOCKS) >= 5


@pytest.mark.parametrize("block", BLOCKS, ids=[f"README.md:{block.line}" for block in BLOCKS])
def test_readme_block_runs_as_shown(block: Block, shell):
    if block.marker == "not-run":
        pytest.skip(f"marked not-run in the README: {block.argument}")
    if block.marker == "needs" and shutil.which(block.argument) is None:
        pytest.skip(f"marked as needing {block.argument}, which is not installed")
    if block.marker == "output-of":
        status, output = shell(block.argument)
        assert status == 0, output
        if block.language == "json":
            assert json.loads(output) == _approx(json.loads("\n".join(block.lines)))
        else:
            assert_output(block.lines, output, block.argument)
        return
    if block.language == "sh":
        for command in _command_lines(block):
            status, output = shell(command)
            assert status == 0, f"$ {command}\n{output}"
        return
    assert block.lines and block.lines[0].startswith("$ "), (
        f"README.md:{block.line}: a block must start with `$ COMMAND`, follow "
        "<!-- output-of: COMMAND -->, be `sh` commands or be marked <!-- not-run: why -->"
    )
    for command, expected in _sessions(block):
        if any(line.startswith(">>> ") for line in expected):
            stdin, expected = _repl_session(expected)
            _, output = shell(command, stdin)
        else:
            _, output = shell(command)
        assert_output(expected, output, command)
