"""Where the grammar file is, and the rules parsing starts from (shared by the runtime parser,
`grammar`, and the table builder, `table_builder`)."""

from __future__ import annotations

from pathlib import Path

GRAMMAR_NAME = "autodiff.lark"
START_SYMBOLS = ["file_input", "eval_input"]


def grammar_path() -> Path:
    """The grammar file: inside the package when installed, else the checkout's `grammar/`."""
    package_dir = Path(__file__).resolve().parent.parent
    for candidate in (
        package_dir / "grammar" / GRAMMAR_NAME,
        package_dir.parent / "grammar" / GRAMMAR_NAME,
    ):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"grammar file {GRAMMAR_NAME} not found near {package_dir}")


def grammar_text() -> str | None:
    """The grammar file's text, None when the package was installed without it."""
    try:
        return grammar_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
