"""The tool's own words in the user's language (English, or Simplified Chinese), through the
standard gettext catalogues in `autodiff_cli/locale` (`autodiff.po`, compiled to `autodiff.mo`).

Only what this tool says is translated: its hints, notes and explanations. PyTorch's and
Python's messages are facts a learner searches for, so they stay exactly as those print them.

The language comes from `--lang` (`set_language`), else from LANGUAGE, LC_ALL, LC_MESSAGES and
LANG as gettext reads them. Click's and Typer's words (`Usage:`, `Options`) come through the
standard gettext domain, bound to the same catalogue once a language other than English is chosen. The catalogue is read when this module loads (and again on
`set_language`): a jailed child cannot open a file, so it must hold the catalogue before it is
locked down; it inherits it from the parent it forks from.
"""

from __future__ import annotations

import ast
import os
import struct
from typing import TYPE_CHECKING, Any

from autodiff_cli import lazy_imports

if TYPE_CHECKING:
    from pathlib import Path

DOMAIN = "autodiff"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANGUAGES = {"en": "en", "zh": "zh_CN", "zh_CN": "zh_CN", "zh-CN": "zh_CN", "zh_Hans": "zh_CN"}
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order

_catalogue: Any = None  # a gettext.GNUTranslations, None for English (nothing to translate)


def _load(language: str) -> Any:
    """The catalogue of `language` (gettext is imported only for a language other than English:
    the one-liner's start-up does not pay for it)."""
    gettext = lazy_imports.load("gettext")
    try:
        found = gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)
    except OSError:  # an unreadable catalogue: English
        return None
    return None if type(found) is gettext.NullTranslations else found


def _environment_language() -> str | None:
    """The language the environment selects, as gettext reads it (`zh_CN.UTF-8:en` -> zh_CN)."""
    for name in _ENVIRONMENT:
        value = os.environ.get(name)
        if value:
            first = value.split(":")[0].split(".")[0].split("@")[0]
            return "zh_CN" if first.startswith("zh") else None
    return None


def set_language(code: str | None) -> None:
    """Use `code` (`en`, `zh`, `zh_CN`); None: the environment's choice."""
    global _catalogue
    if code is None:
        chosen = _environment_language()
    else:
        chosen = LANGUAGES.get(code)
        if chosen is None:
            raise ValueError(f"unknown language {code!r} (choose from: en, zh)")
    _catalogue = None if chosen in (None, "en") else _load(chosen)
    if code is not None:  # `--lang`: Click's and Typer's words follow it (see below)
        os.environ["LANGUAGE"] = chosen or "en"
    if _catalogue is not None:
        _speak_for_libraries()


def _speak_for_libraries() -> None:
    """Click's and Typer's own words (`Usage:`, `Options`...) in the chosen language: they call
    the standard `gettext.gettext`, whose domain an application sets, and which reads the
    language from the environment (LANGUAGE first, set by `--lang`)."""
    gettext = lazy_imports.load("gettext")
    gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
    gettext.textdomain(DOMAIN)


def language() -> str:
    """`zh_CN` when the Chinese catalogue is in use, else `en`."""
    return "en" if _catalogue is None else "zh_CN"


def gettext(message: str) -> str:
    """`message` in the chosen language (itself when it has no translation)."""
    return message if _catalogue is None else _catalogue.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    if _catalogue is None:
        return singular if count == 1 else plural
    return _catalogue.ngettext(singular, plural, count)


# ---- the catalogue's compiler (msgfmt's job, so that no gettext tools are needed) ------------


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
    folder = lazy_imports.load("pathlib").Path(LOCALE_DIR) / code / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def build_catalogues() -> list[Path]:
    """Compile every `.po` under `locale/` to its `.mo` (`python -m autodiff_cli.i18n`)."""
    built = []
    for po in sorted(
        lazy_imports.load("pathlib").Path(LOCALE_DIR).glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    ):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_mo(read_po(po.read_text(encoding="utf-8"))))
        built.append(mo)
    return built


set_language(None)

if __name__ == "__main__":
    for path in build_catalogues():
        print(path)
