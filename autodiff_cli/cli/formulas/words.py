"""The words `--formula` shows, in the user's language: the project's gettext catalogue
(`autodiff_cli/i18n.py`, `locale/zh_CN/LC_MESSAGES/autodiff.po`)."""

from __future__ import annotations

from autodiff_cli.i18n import gettext as _

__all__ = ["_"]
