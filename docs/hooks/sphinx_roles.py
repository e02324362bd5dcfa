"""Show the docstrings' Sphinx roles as plain code in the API reference.

The code's docstrings name other objects the Sphinx way (``:class:`Game```,
``:meth:`~ludoteca.core.protocol.Result.payoffs```), which Markdown renders as the role's
name followed by the code. This MkDocs hook drops the role and, as Sphinx does for ``~``,
keeps only the last part of a name, so the reference reads as the docstrings mean it.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|attr|data|exc|obj|const):(<code>)(~?)([^<]*)")


def _plain(match: re.Match[str]) -> str:
    name = match.group(3)
    if match.group(2):
        name = name.rsplit(".", 1)[-1]
    return match.group(1) + name


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub(_plain, html)
