"""What a move changed, carried in the notification that tells the other server processes.

Without it, a process that heard of a move made elsewhere read the game's head and the new
moves back from PostgreSQL (three statements) before it could show the move to its
watchers, for every move of every game whose players are served by different processes.
The process that made the move knows all of it already: the new ply, turn and clock columns
(:data:`~ludoteca.web.round.service.MOVED_COLUMNS`) and the moves as stored. So its commit's
``NOTIFY`` carries them, and the others bring their kept game up to date from the message.

Only for a move after which the game stays active and has no live clock: then the moves and
those columns are everything that changed (the seats change only with a live clock, and
whatever else changes an active game also ends it). Any other change is announced without
news, and the others read it from the database, as they do when the news does not fit in a
notification (PostgreSQL's limit is 8000 bytes) or does not follow what they kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

MAX_BYTES = 7_000
"""Longer news is not sent (PostgreSQL refuses a payload of 8000 bytes or more; the rest of
the payload is the game's number and the sender's token)."""


@dataclass(frozen=True, slots=True)
class MoveNews:
    """The game after moves committed in another process: from ``first_ply`` (the ply the
    moves were claimed at) to ``ply``, with the columns a move writes."""

    first_ply: int
    ply: int
    to_move: int
    turn_started: datetime | None
    deadline: datetime | None
    moves: tuple[tuple[int, str, int, str | None], ...]
    """``(ply, text, player, note)`` of each new move, as stored."""
    takebacks: int
    """The game's count of takebacks: news of another count does not follow what is kept,
    however equal the plies."""


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def news_text(
    first_ply: int, moved: dict[str, Any], added: list[dict[str, Any]], *, takebacks: int
) -> str | None:
    """The news of ``added`` (the move rows a claim at ``first_ply`` stored) and ``moved``
    (the columns it wrote) in a game that had ``takebacks`` takebacks, as compact JSON, or
    None if it would not fit a notification."""
    text = json.dumps(
        [
            first_ply,
            moved["ply"],
            moved["to_move"],
            _when(moved["turn_started"]),
            _when(moved["deadline"]),
            [[m["ply"], m["text"], m["player"], m["note"]] for m in added],
            takebacks,
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return text if len(text.encode()) <= MAX_BYTES else None


def read_news(text: str) -> MoveNews | None:
    """The news in ``text``, or None if it is not news this process understands (a sender of
    another version): the receiver then reads the game from the database."""
    try:
        first, ply, to_move, started, deadline, moves, takebacks = json.loads(text)
        played = tuple(
            (int(p), str(t), int(who), None if n is None else str(n)) for p, t, who, n in moves
        )
        news = MoveNews(
            int(first),
            int(ply),
            int(to_move),
            None if started is None else datetime.fromisoformat(started),
            None if deadline is None else datetime.fromisoformat(deadline),
            played,
            int(takebacks),
        )
    except (ValueError, TypeError):
        return None
    if news.ply != news.first_ply + len(played) or any(
        p != news.first_ply + i for i, (p, _, _, _) in enumerate(played)
    ):
        return None
    return news
