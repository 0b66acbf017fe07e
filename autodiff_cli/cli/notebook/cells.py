"""A notebook cell's IPython-only lines: magics (`%matplotlib inline`, `%%time`) and shell lines
(`!pip install torch`). Those that change nothing a script computes are blanked (line numbers
stay right) with a note; those whose skipping would change the result (`%time x = f()` runs
`x = f()`, `files = !ls`, `%%capture out`) are refused with a located reason."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Line magics that only set up IPython itself (plots, extensions, packages, configuration):
# the script's values are the same without them.
SKIPPED_MAGICS = frozenset(
    {
        "matplotlib", "config", "load_ext", "reload_ext", "unload_ext", "autoreload",
        "aimport", "pip", "conda", "mamba", "env", "pwd", "who", "whos", "lsmagic",
        "xmode", "colors", "autosave", "pdb", "automagic", "autocall",
    }
)  # fmt: skip
# Cell magics whose body runs as it is (only timing is added).
BODY_RUNS = frozenset({"time"})
_MAGIC = re.compile(r"[ \t]*(%%?)([A-Za-z_]\w*)?(.*)")
_ASSIGNED_SHELL = re.compile(r"[ \t]*[A-Za-z_]\w*\s*=\s*[!%]")


@dataclass
class PreparedCell:
    """A cell's code with IPython-only lines blanked; `notes`: (line, what was skipped);
    `refusal`: (line, why) when the cell cannot run without IPython."""

    code: str
    notes: list[tuple[int, str]] = field(default_factory=list)
    refusal: tuple[int, str] | None = None


def prepare_cell(source: str) -> PreparedCell:
    """`source` with its magics and shell lines blanked, or refused."""
    lines = source.split("\n")
    prepared = PreparedCell(source)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = (_MAGIC.match(lines[first]).group(2) or "").lower()
        if name not in BODY_RUNS:
            prepared.refusal = (first + 1, f"the cell magic %%{name} needs IPython")
            return prepared
        prepared.notes.append((first + 1, f"skipped the cell magic %%{name} (the cell runs)"))
        lines[first] = ""
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        number = index + 1
        if _ASSIGNED_SHELL.match(line):
            prepared.refusal = (number, f"{stripped!r} assigns the output of IPython syntax")
            return prepared
        if stripped.startswith("!"):
            prepared.notes.append((number, f"skipped the shell line {stripped}"))
            lines[index] = ""
        elif stripped.startswith("%") and not stripped.startswith("%%"):
            name = _MAGIC.match(line).group(2) or ""
            if name.lower() not in SKIPPED_MAGICS:
                why = f"the magic %{name} needs IPython; without it the cell would compute "
                prepared.refusal = (number, why + "something else")
                return prepared
            prepared.notes.append((number, f"skipped the magic {stripped}"))
            lines[index] = ""
    prepared.code = "\n".join(lines)
    return prepared


def is_quiet(code: str) -> bool:
    """Whether the cell's last line ends with `;`: a notebook then shows no value."""
    for line in reversed(code.split("\n")):
        text = line.strip()
        if "#" in text and "'" not in text and '"' not in text:
            text = text.partition("#")[0].rstrip()
        if text:
            return text.endswith(";")
    return False


def is_meta_cell(code: str) -> bool:
    """A cell of `:` commands (`:graph y`, `:vars`): every line that is not blank starts with
    `:`."""
    lines = [line for line in code.split("\n") if line.strip()]
    return bool(lines) and all(line.lstrip().startswith(":") for line in lines)
