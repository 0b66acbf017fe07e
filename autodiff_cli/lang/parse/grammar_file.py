"""Where the grammar file is, and the rules parsing starts from (shared by the runtime parser,
`grammar`, and the table builder, `table_builder`)."""

from __future__ import annotations

import os
import zlib

GRAMMAR_NAME = "autodiff.lark"
START_SYMBOLS = ["file_input", "eval_input"]


def grammar_path() -> str:
    """The grammar file: inside the package when installed, else the checkout's `grammar/`.
    (`os.path`, not `pathlib`: importing pathlib would cost every start-up ~5 ms.)"""
    package_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    for candidate in (
        os.path.join(package_dir, "grammar", GRAMMAR_NAME),
        os.path.join(os.path.dirname(package_dir), "grammar", GRAMMAR_NAME),
    ):
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(f"grammar file {GRAMMAR_NAME} not found near {package_dir}")


def grammar_text() -> str | None:
    """The grammar file's text, None when the package was installed without it."""
    try:
        with open(grammar_path(), encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError):
        return None


def grammar_checksum(text: str) -> int:
    """The checksum of the grammar text the tables are built from (stored in the file, so that
    a checkout whose grammar was edited since is noticed; zlib is loaded by numpy anyway)."""
    return zlib.crc32(text.encode("utf-8"))
