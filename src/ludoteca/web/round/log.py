"""The game log in words: per move, who did what and what it caused, as the engine tells it.

The engine words each move (:meth:`~ludoteca.core.protocol.State.describe_last_move`), naming
the players as this module gives them: the people and computers at the seats, told apart by
their side where two seats read alike (two computers of one level). Nothing here knows a
game; the words are kept with each move when it is played (the move's stored note), and a
replay works them out again from the record, so a game played before the log had words gets
them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE, State
from ludoteca.web.infra.store import GameRow
from ludoteca.web.round.access import seat_text


def log_names(row: GameRow, state: State) -> list[str]:
    """Each seat's player as the log names them: their name, or ``computer (medium)``; a
    label two seats share gets its side (``computer (easy) (player2)``)."""
    labels = [seat_text(s) for s in sorted(row.seats, key=lambda s: s.index)]
    names: list[str] = []
    for i, label in enumerate(labels):
        if labels.count(label) > 1:
            names.append(Text("{name} ({side})", {"name": label, "side": state.side_name(i)}))
        else:
            names.append(label)
    return names


def told(state: State, names: Sequence[str]) -> str | None:
    """The move just played on ``state`` in words: the engine's log line, else its summary
    (a game that does not word its moves yet)."""
    words = state.describe_last_move(names)
    return words if words is not None else state.last_move_summary()


def game_log(state: State, moves: Sequence[tuple[str, int]], names: Sequence[str]) -> list[Any]:
    """The log of a whole game, one entry per move from ``state`` (its start, changed in
    place): the words of each move, ``None`` where the engine has none."""
    out: list[Any] = []
    for text, _player in moves:
        state.play(text)
        out.append(told(state, names))
    return out


def steps_of(moves: Sequence[tuple[str, int]]) -> list[tuple[int, int]]:
    """The log's entries as ``(first, last)`` move indices: every move on its own, except a
    run of the table's draws (Comino's deal of 21 tiles), which is one entry told by its last
    draw (the engine words that one as the whole deal)."""
    entries = []
    start = 0
    for i, (_text, player) in enumerate(moves):
        following = moves[i + 1][1] if i + 1 < len(moves) else None
        if player == CHANCE and following == CHANCE:
            continue
        entries.append((start, i))
        start = i + 1
    return entries
