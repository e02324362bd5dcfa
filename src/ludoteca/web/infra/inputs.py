"""What the club accepts as input before any of it reaches a handler's logic or the database.

Two kinds of input broke requests deep inside with a 500 instead of a clear refusal:

- **JSON nested without end.** ``[[[[...]]]]`` in a 64 KiB body exceeds Python's recursion
  limit inside ``json.loads``. Bodies and websocket messages are objects a few levels deep,
  so anything nested deeper than :data:`MAX_JSON_DEPTH` is refused before it is parsed.
- **NUL characters.** PostgreSQL's text columns cannot hold ``\\x00``, so a name or a move
  containing one failed in the database. No field of the club has a use for it: a path,
  query, form field or JSON string containing one is refused here, on every database alike.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ludoteca.core.messages import N_, Text
from ludoteca.web.kernel.errors import ClubError

MAX_JSON_DEPTH = 16
"""Deepest nesting of arrays and objects accepted in a JSON body or message (ours use 1)."""
_TOKENS = re.compile(r'\\.|["\[\]{}]', re.DOTALL)
"""What matters for nesting: brackets, quotes, and escapes (a backslash and the character
it escapes, so that ``\\"`` does not end a string)."""
NUL_REFUSED = N_("Text sent to the club cannot contain NUL characters.")


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` outside its strings, in one pass
    (a malformed text gets some number; the parser refuses it afterwards)."""
    depth = deepest = 0
    in_string = False
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue
        elif token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def contains_nul(value: Any) -> bool:
    """Whether any string in a parsed JSON value (keys included) contains NUL."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def json_object(raw: bytes | str, what: str = N_("The request body")) -> dict[str, Any]:
    """``raw`` parsed as a JSON object, or a :class:`ClubError` (400) saying why not;
    ``what`` names it, a message marked for translation."""

    def refused() -> ClubError:  # made only when needed: every message and request comes here
        return ClubError("{what} must be a JSON object.", what=Text(what))

    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise refused() from None
    # nesting needs an opening bracket per level: counting them (in C) spares the scan for
    # the small messages every move sends
    openers = text.count("[") + text.count("{")
    if openers > MAX_JSON_DEPTH and json_depth(text) > MAX_JSON_DEPTH:
        raise ClubError(
            "{what} is nested too deeply (at most {MAX_JSON_DEPTH} levels).",
            what=Text(what),
            MAX_JSON_DEPTH=MAX_JSON_DEPTH,
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise refused() from None
    if not isinstance(data, dict):
        raise refused()
    if contains_nul(data):
        raise ClubError(NUL_REFUSED)
    return data


def check_text(value: str) -> str:
    """``value`` if it holds no NUL, else a :class:`ClubError` (400)."""
    if "\x00" in value:
        raise ClubError(NUL_REFUSED)
    return value
