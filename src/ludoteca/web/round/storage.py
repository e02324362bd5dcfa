"""A game's storage: the statements every move runs, built once, and the stored game as the
views and the records read it (moves as plain tuples, a row caught up from the game's head).

Building a statement, and the key SQLAlchemy looks its compiled form up by, cost more than
running it on SQLite (a statement object remembers its key), so they are module constants
whose values come as parameters at each call."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import State
from ludoteca.record import Record
from ludoteca.web.infra.store import GameRow, MoveRow
from ludoteca.web.infra.store import Session as StoredSession


class PlayedMove(NamedTuple):
    """A stored move as the views show it. Kept for every game a process serves (see
    :meth:`.reading.GameReader.snapshot`), so it is a plain tuple of strings and numbers, which the
    garbage collector stops tracking: ORM objects there (five or so per move, for hundreds of
    games) made each full collection pause the server for 100 ms and more."""

    ply: int
    text: str
    player: int
    note: str | None

    @classmethod
    def of(cls, row: MoveRow) -> PlayedMove:
        return cls(row.ply, row.text, row.player, row.note)


_GAMES = GameRow.__table__
_MOVES = MoveRow.__table__
_SESSIONS = StoredSession.__table__
MOVED_COLUMNS = ("ply", "to_move", "turn_started", "deadline")
"""What a move writes to an active game without a live clock (:meth:`.playing.Playing.commit_moves`
claims it with these; the seats change only with a live clock, and everything else that
changes an active game also ends it)."""
HEAD = select(
    _GAMES.c.status, _GAMES.c.takebacks, *(_GAMES.c[name] for name in MOVED_COLUMNS)
).where(_GAMES.c.id == bindparam("pk"))
"""The game's status, its count of takebacks and the columns a move changes: whether a kept
row is still exact, and what brings it up to date (:meth:`.reading.GameReader._fresh_row`)."""
CLAIM = update(_GAMES).where(
    _GAMES.c.id == bindparam("claim_id"),
    _GAMES.c.ply == bindparam("claim_ply"),
    _GAMES.c.takebacks == bindparam("claim_takebacks"),
    _GAMES.c.status != "finished",
)
"""A move's claim on its game: the game as read (at this ply, of this count of takebacks:
after a takeback, the same ply is another line); the columns to set come as parameters
named after them."""
SESSION_OPEN = (
    select(_SESSIONS.c.token_hash)
    .where(
        _SESSIONS.c.token_hash == bindparam("session_hash"),
        _SESSIONS.c.user_id == bindparam("session_user"),
        _SESSIONS.c.expires >= bindparam("session_now"),
    )
    .exists()
)
CLAIM_IN_SESSION = CLAIM.where(SESSION_OPEN)
"""The claim of a move sent in a session (a game's socket), which must still be open: the
check every such move makes, in the claim's statement instead of a round trip of its own."""
ADD_MOVES = insert(_MOVES)
PLAYED_MOVES = (
    select(_MOVES.c.ply, _MOVES.c.text, _MOVES.c.player, _MOVES.c.note)
    .where(
        _MOVES.c.game_id == bindparam("pk"),
        _MOVES.c.ply >= bindparam("first"),
        _MOVES.c.ply < bindparam("last"),
    )
    .order_by(_MOVES.c.ply)
)
"""A game's moves from ply ``first`` up to ``last`` (excluded), in order."""
MOVE_TEXTS = PLAYED_MOVES.with_only_columns(_MOVES.c.text)
"""The same moves' texts alone: what replaying them into a state needs."""


def caught_up(kept: GameRow, head) -> GameRow:
    """A detached copy of ``kept`` (an active game without a live clock) as ``head``, the
    game's stored :data:`HEAD`, shows it after later moves. Loading the game again with its
    seats and their players cost a process more than anything else in a move made through
    another process; the seats are the kept ones, which such moves do not change. Views may
    be reading ``kept`` meanwhile, so it is copied, never changed."""
    values = {column.key: getattr(kept, column.key) for column in _GAMES.columns}
    values.update({name: getattr(head, name) for name in MOVED_COLUMNS})
    row = GameRow(**values)
    make_transient_to_detached(row)  # as if loaded: merge(load=False) takes it as it is
    set_committed_value(row, "seats", list(kept.seats))
    return row


def record_of(row: GameRow, start: State, texts: list[str]) -> Record:
    """The game as a record: what downloads, replays and the bot workers are handed."""
    players = []
    for s in row.seats:
        if s.kind == "bot":
            players.append(f"computer:{s.bot}")
        elif s.user is not None:
            players.append(s.user.name)
        else:
            players.append("")
    start_text: str | None = start.position()
    try:
        start.game.from_position(start_text)
    except GameError:
        start_text = None  # a start the notation cannot hold is rebuilt from the seed
    return Record(
        game=row.game,
        rules_version=row.rules_version,
        options=dict(row.options),
        seed=row.seed,
        start=start_text,
        players=players,
        moves=list(texts),
        result=row.result,
        started=(row.started or row.created).isoformat(timespec="seconds") + "+00:00",
        finished=row.finished.isoformat(timespec="seconds") + "+00:00" if row.finished else None,
    )


def claim_as_read(db, row: GameRow, *also, **values) -> bool:
    """Set ``values`` on the game ``row`` only if it is still as it was read (active, at this
    ply, after as many takebacks) and matches the conditions ``also``: of two processes
    changing one game at once (a time-out, an agreement, a move), one changes nothing. False,
    with the transaction rolled back, for that one."""
    claimed = db.execute(
        update(GameRow)
        .where(
            GameRow.id == row.id,
            GameRow.status == "active",
            GameRow.ply == row.ply,
            GameRow.takebacks == row.takebacks,
            *also,
        )
        .values(**values),
        execution_options={"synchronize_session": False},
    )
    if claimed.rowcount != 1:
        db.rollback()
        return False
    return True
