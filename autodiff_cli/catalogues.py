"""The translation catalogues as files: a `.po` read, compiled to its `.mo` (msgfmt's job, so
that no gettext tools are needed). `python -m autodiff_cli.i18n` runs `main`; the running tool
only reads the compiled catalogue (`autodiff_cli/i18n.py`), so it never imports this module."""

from __future__ import annotations

import ast
import struct
from pathlib import Path

from autodiff_cli.i18n import DOMAIN, LOCALE_DIR


def read_po(text: str) -> dict[str, str]:
    """The translated entries of a `.po` file's text (msgid -> msgstr; fuzzy ones skipped)."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None
    fuzzy = False

    def finish() -> None:
        if msgid is not None and msgstr is not None and not fuzzy:
            key, value = "".join(msgid), "".join(msgstr)
            if value or not key:
                entries[key] = value

    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if not line or line.startswith("#"):
            if msgstr is not None:
                finish()
                msgid = msgstr = current = None
                fuzzy = False
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("msgid "):
            msgid, msgstr = [], None
            current = msgid
            line = line[len("msgid ") :]
        elif line.startswith("msgstr "):
            msgstr = []
            current = msgstr
            line = line[len("msgstr ") :]
        if current is not None and line.startswith('"'):
            current.append(_unquote(line))
    return entries


def _unquote(quoted: str) -> str:
    return ast.literal_eval(quoted)  # a .po string's C escapes are Python's (\n, \", \\)


def compile_mo(entries: dict[str, str]) -> bytes:
    """The `.mo` file (GNU format, little-endian, no hash table) of `entries`."""
    keys = sorted(entries)
    ids = [key.encode("utf-8") for key in keys]
    strs = [entries[key].encode("utf-8") for key in keys]
    count = len(keys)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + count * 8
    data_start = strs_table + count * 8
    offsets: list[tuple[int, int]] = []
    data = b""
    for text in ids + strs:
        offsets.append((len(text), data_start + len(data)))
        data += text + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    tables = b"".join(struct.pack("<2I", *pair) for pair in offsets)
    return header + tables + data


def catalogue_paths(code: str = "zh_CN") -> tuple[Path, Path]:
    folder = Path(LOCALE_DIR) / code / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def build_catalogues() -> list[Path]:
    """Compile every `.po` under `locale/` to its `.mo` (`python -m autodiff_cli.i18n`)."""
    built = []
    for po in sorted(Path(LOCALE_DIR).glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_mo(read_po(po.read_text(encoding="utf-8"))))
        built.append(mo)
    return built


def main() -> None:
    """Build every catalogue, printing each `.mo` written."""
    for path in build_catalogues():
        print(path)
