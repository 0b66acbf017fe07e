"""The tool's own words in the user's language (English, or Simplified Chinese), through the
standard gettext catalogues in `autodiff_cli/locale` (`autodiff.po`, compiled to `autodiff.mo` by
`autodiff_cli/catalogues.py`: `python -m autodiff_cli.i18n`).

Only what this tool says is translated: its hints, notes and explanations. PyTorch's and
Python's messages are facts a learner searches for, so they stay exactly as those print them.

The language comes from `--lang` (`set_language`), else from LANGUAGE, LC_ALL, LC_MESSAGES and
LANG as gettext reads them. Click's and Typer's words (`Usage:`, `Options`) come through the
standard gettext domain, bound to the same catalogue once a language other than English is chosen. The catalogue is read when this module loads (and again on
`set_language`): a jailed child cannot open a file, so it must hold the catalogue before it is
locked down; it inherits it from the parent it forks from.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from autodiff_cli import lazy_imports

DOMAIN = "autodiff"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANGUAGES = {"en": "en", "zh": "zh_CN", "zh_CN": "zh_CN", "zh-CN": "zh_CN", "zh_Hans": "zh_CN"}
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order

_catalogue: Any = None  # a gettext.GNUTranslations, None for English (nothing to translate)


def _gettext_module() -> ModuleType:
    """The standard `gettext`, imported only for a language other than English: the one-liner's
    start-up does not pay for it."""
    return lazy_imports.load("gettext")


def _load(language: str) -> Any:
    """The catalogue of `language`."""
    gettext = _gettext_module()
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
    gettext = _gettext_module()
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


set_language(None)

if __name__ == "__main__":  # `python -m autodiff_cli.i18n`: build the catalogues (their module)
    from autodiff_cli.catalogues import main

    main()
