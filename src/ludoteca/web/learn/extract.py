"""Babel's extractor for the lesson files (``babel.cfg`` names it): each step's sentence is a
message, so ``make update-catalogs`` collects it and the catalog tests ask for its German and
Japanese like any other text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any


def lesson_texts(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    data = json.loads(fileobj.read().decode("utf-8"))
    for step in data.get("steps", []):
        for key in ("text", "done"):
            if step.get(key):
                yield 1, "_", step[key], []
