"""What people write for others to read (chat lines, forum titles and posts), cleaned of the
characters that deceive the reader or drive their terminal rather than show anything.

One cleaning for the chat and the forum, so a trick refused in one is refused in the other:

- **Control characters** (BEL, ESC and its colour codes, backspace, …): dropped. Line breaks
  and tabs are whitespace, which each caller folds as it needs (a chat line into one line,
  a post keeps its paragraphs).
- **Direction overrides and isolates** (U+202A–U+202E, U+2066–U+2069) and the other invisible
  format characters (zero-width space, word joiner, byte-order mark, soft hyphen, tags, …):
  dropped. They reverse the text after them (``U+202E`` makes ``exe.txt`` of ``txt.exe``)
  or hide words in plain sight. The zero-width joiner and non-joiner stay: emoji sequences
  and several scripts need them.
- **Stacks of combining marks**: at most :data:`MAX_MARKS` on one character. Real writing
  stacks two or three (Vietnamese, Hebrew points); hundreds smear a line over its
  neighbours.
- **Nothing visible**: text of only whitespace, joiners and marks is empty.

Lone surrogates (which JSON can carry but no database stores as text) are dropped too.
"""

from __future__ import annotations

import unicodedata

MAX_MARKS = 4
"""Combining marks kept on one base character; the rest of a longer stack is dropped."""
KEPT_FORMATS = frozenset({"\u200c", "\u200d"})
"""Format characters with a use in honest text: zero-width non-joiner and joiner."""
WHITESPACE_CONTROLS = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85")


def visible_text(text: str) -> str:
    """``text`` without control and deceptive characters (see the module's notes); the
    whitespace controls become spaces or stay line breaks (``\\n``)."""
    out: list[str] = []
    marks = 0
    for ch in text.replace("\r\n", "\n"):
        category = unicodedata.category(ch)
        if category == "Cc":
            if ch == "\n":
                out.append("\n")
            elif ch in WHITESPACE_CONTROLS:
                out.append(" ")
            marks = 0
            continue
        if category == "Cs" or (category == "Cf" and ch not in KEPT_FORMATS):
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def has_something_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is not whitespace, a mark or a
    format character."""
    return any(not ch.isspace() and unicodedata.category(ch)[0] not in ("M", "C") for ch in text)
