"""What a server process keeps of the games it serves: one object per game.

A kept game holds its state at a ply, the moves already read, and the row this process last
committed a move with (or brought up to date after another process's moves). Each part is
replaced whole, never changed in place, so a view reading the old one is undisturbed; a part
that disagrees with the database is dropped and read again (see
:mod:`ludoteca.web.round.reading`). Only the :data:`MAX_CACHED_GAMES` games used last are
kept; the others are rebuilt by replay when next needed.

A takeback makes the ply go down, and later moves bring it up again along another line: the
same ply is then another game. So an entry is of one count of the game's takebacks
(:attr:`~ludoteca.web.infra.store.GameRow.takebacks`): it is read only by a caller that
knows the game to be of that count (:meth:`GameCache.of_line`), and keeping a part of
another count first empties it (:meth:`GameCache.keep`). Another process's takeback is
then noticed by the first read that sees the game's count, whatever was heard of it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ludoteca.core.protocol import State
from ludoteca.web.infra.store import GameRow
from ludoteca.web.round.storage import PlayedMove

MAX_CACHED_GAMES = 512
"""Games kept in memory; older ones are rebuilt by replay when next needed."""


@dataclass(frozen=True)
class Live:
    """A game's state after its first ``ply`` moves."""

    ply: int
    state: State


class CachedGame:
    """What is kept of one game; any part may be missing (None)."""

    __slots__ = ("live", "moves", "row", "takebacks")

    def __init__(self, takebacks: int = 0) -> None:
        self.takebacks = takebacks
        """The game's count of takebacks the parts were read at: all of them, or none."""
        self.live: Live | None = None
        self.moves: tuple[PlayedMove, ...] | None = None
        """Moves already read: stored moves never change, so a view only fetches newer ones."""
        self.row: GameRow | None = None
        """Detached, never changed again: the views after a move need not read the game."""

    def whole(self) -> bool:
        """Whether the state, the moves and the row are all kept, and of the same ply."""
        live, moves, row = self.live, self.moves, self.row
        return (
            live is not None
            and moves is not None
            and row is not None
            and row.ply == live.ply == len(moves)
        )


_NOTHING = CachedGame()


class GameCache:
    """The kept games by number, the most recently used last."""

    def __init__(self, size: int = MAX_CACHED_GAMES) -> None:
        self.size = size
        self._games: dict[int, CachedGame] = {}
        self._guard = threading.Lock()

    def get(self, pk: int) -> CachedGame:
        """What is kept of ``pk`` (an empty entry if nothing is)."""
        return self._games.get(pk, _NOTHING)

    def of_line(self, pk: int, takebacks: int) -> CachedGame:
        """What is kept of ``pk`` if it is of the game as it is after ``takebacks``
        takebacks (an empty entry if not: moves were taken back since it was kept)."""
        entry = self._games.get(pk, _NOTHING)
        return entry if entry.takebacks == takebacks else _NOTHING

    def _entry(self, pk: int) -> CachedGame:
        """``pk``'s entry, made the most recently used (the caller holds the guard)."""
        entry = self._games.pop(pk, None) or CachedGame()
        self._games[pk] = entry
        while len(self._games) > self.size:
            self._games.pop(next(iter(self._games)))
        return entry

    def keep(
        self,
        pk: int,
        *,
        takebacks: int,
        live: Live | None = None,
        moves: tuple[PlayedMove, ...] | None = None,
        row: GameRow | None = None,
    ) -> None:
        """Replace the parts given of ``pk``'s entry, read when the game had ``takebacks``
        takebacks; parts kept of another count are dropped."""
        with self._guard:
            entry = self._entry(pk)
            if entry.takebacks != takebacks:
                entry.live, entry.moves, entry.row = None, None, None
                entry.takebacks = takebacks
            if live is not None:
                entry.live = live
            if moves is not None:
                entry.moves = moves
            if row is not None:
                entry.row = row

    def drop_state(self, pk: int) -> None:
        """The kept state is not the game's: it is replayed when next needed."""
        with self._guard:
            entry = self._games.get(pk)
            if entry is not None:
                entry.live = None

    def drop_row(self, pk: int) -> None:
        """The kept row is no longer exact (the game changed, or ended)."""
        with self._guard:
            entry = self._games.get(pk)
            if entry is not None:
                entry.row = None

    def forget(self, pk: int) -> None:
        with self._guard:
            self._games.pop(pk, None)


class ListChanges:
    """Counts changes to which games are open, in progress or finished in this process, so
    that the lobby's lists kept for a second (``Club.lists``) are made again at once after
    one. Shared by the roles that make such changes (:mod:`.setup`, :mod:`.finishing`)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def note(self) -> None:
        self.count += 1
