"""Playing a move on the server: the only place where moves are accepted.

The server is the authority (principle 1 of ``docs/ARCHITECTURE.md``). A move arrives as
text, is parsed and played by the engine through the protocol, chance outcomes that follow
are drawn from the game's secret seed (principle 3), and only when the moves are committed to
the database is anyone told (the caller broadcasts after :meth:`Playing.submit` returns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value

from ludoteca.core.errors import GameError, MalformedError
from ludoteca.core.messages import Text, to_stored
from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.table import draw_at
from ludoteca.web.infra.fanout import notice
from ludoteca.web.infra.store import GameRow, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError, SessionEnded
from ludoteca.web.round import clocks
from ludoteca.web.round.cached import GameCache, Live
from ludoteca.web.round.finishing import Finishing
from ludoteca.web.round.log import log_names, told
from ludoteca.web.round.move_news import news_text
from ludoteca.web.round.reading import GameReader
from ludoteca.web.round.storage import ADD_MOVES, CLAIM, CLAIM_IN_SESSION, PlayedMove

MAX_MOVE_TEXT = 200

MovesHook = Callable[[Any, GameRow, State, "int | None"], None]
"""``(db, row, state, mover)``: the player who just moved, or None for the table."""


class Probe(NamedTuple):
    """A move tried on a copy of a position: the copy after it, the move, its notation."""

    after: State
    move: Any
    text: str


def probe(state: State, text: str) -> Probe:
    """Play ``text`` on a copy of ``state`` (left as it is). Raises the engine's
    :class:`~ludoteca.core.errors.GameError` (a :class:`MalformedError` if it does not
    parse): the one way the club tries a move, to play it or to draw it beforehand."""
    after = state.clone()
    move = after.str_to_move(text)
    canonical = after.move_to_str(move)
    after.play(move)
    return Probe(after, move, canonical)


class Playing:
    """Moves: checked by the engine, stored as one claim on the game, chance drawn after.
    A move that ends the game ends it through ``finishing``."""

    def __init__(
        self, store: Store, cache: GameCache, reader: GameReader, finishing: Finishing
    ) -> None:
        self.store = store
        self.cache = cache
        self.reader = reader
        self.finishing = finishing
        self.on_moves: list[MovesHook] = []
        """Run after each batch of moves is written, in its transaction (notifications of
        a correspondence turn); cheap when they have nothing to do, as they run on every
        move."""

    def submit(
        self,
        pk: int,
        user: User | None,
        text: object,
        *,
        bot: bool = False,
        expected_ply: int | None = None,
        session: str | None = None,
        expected_takebacks: int | None = None,
    ) -> int:
        """Validate and commit one move (and the chance outcomes after it); return the ply.

        ``user`` must hold the seat to move (``bot=True`` plays for a computer seat instead).
        Nothing is changed if anything is refused. ``session``: the hash of the session the
        move was sent in, which must still be open (else :class:`SessionEnded`), checked
        by the move's claim itself. ``expected_ply`` and ``expected_takebacks``: the game
        the move was decided on (a computer's move found for a position that a takeback and
        a move since have replaced, at the same ply, is refused).
        """
        if not isinstance(text, str) or not text.strip():
            raise ClubError("A move is a non-empty text in the game's notation.")
        if len(text) > MAX_MOVE_TEXT:
            raise ClubError(
                "A move is at most {MAX_MOVE_TEXT} characters.", MAX_MOVE_TEXT=MAX_MOVE_TEXT
            )
        text = text.strip()
        for trust_kept in (True, False):
            trusted = False
            try:
                with self.reader.lock(pk), self.store.session() as db:
                    row, trusted = self.reader.row_to_move(db, pk, trust_kept)
                    self._validate_and_commit(
                        db, row, user, text, bot, (expected_ply, expected_takebacks), session
                    )
                    return row.ply
            except ClubError as exc:
                # Refused on the kept row, which may be behind another process's move:
                # only the game as stored may refuse (a refusal that ended the game on
                # time has read it, and changed it).
                if not trusted or exc.changed or isinstance(exc, SessionEnded):
                    raise
        raise AssertionError("unreachable: the second try reads the game as stored")

    def _validate_and_commit(
        self,
        db,
        row: GameRow,
        user: User | None,
        text: str,
        bot: bool,
        expected: tuple[int | None, int | None],
        session: str | None,
    ) -> None:
        """The body of :meth:`submit` once the game is read: refuse with why, or commit."""
        if row.status == "finished":
            raise ClubError("Move {text!r} refused: the game is over.", 409, text=text)
        if row.status != "active":
            raise ClubError("Move {text!r} refused: the game has not started.", 409, text=text)
        if not bot and (user is None or not any(s.user_id == user.id for s in row.seats)):
            raise ClubError(
                "Move {text!r} refused: you are watching, not playing, this game; only its "
                "players can move.",
                403,
                text=text,
            )
        self.finishing.refuse_if_stale(
            db,
            row,
            Text("Move {text!r} refused", {"text": text}),
            expected[0],
            Text("look again"),
            expected[1],
        )
        state = self.reader.state_in(db, row)
        player = state.to_move
        seat = row.seats[player] if 0 <= player < len(row.seats) else None
        if seat is None:
            raise ClubError("Move {text!r} refused: no player is to move.", 409, text=text)
        if bot:
            if seat.kind != "bot":
                raise ClubError("The computer is not to move.", 409)
        elif user is None or seat.user_id != user.id:
            raise ClubError(
                "Move {text!r} refused: it is not your turn ({side_name} is to move).",
                409,
                text=text,
                side_name=state.side_name(player),
            )
        try:
            tried = probe(state, text)
        except MalformedError as exc:
            reason = Text("it does not parse ({reason})", {"reason": exc.text})
            raise ClubError("Move {text!r} refused: {why}.", text=text, why=reason) from None
        except GameError as exc:
            raise ClubError("Move {text!r} refused: {why}.", text=text, why=exc.text) from None
        after = tried.after
        new = [(tried.text, player, told(after, log_names(row, after)))]
        new += self.resolve_chance(row, after, first_ply=row.ply + 1)
        in_session = None if session is None or user is None else (session, user.id)
        self.commit_moves(db, row, after, new, in_session)

    def resolve_chance(
        self, row: GameRow, state: State, first_ply: int | None = None
    ) -> list[tuple[str, int, str | None]]:
        """Draw chance outcomes from the secret seed until a player (or the end) is to move."""
        ply = row.ply if first_ply is None else first_ply
        drawn = []
        names = log_names(row, state)
        while state.to_move == CHANCE:
            move = draw_at(state, row.seed, ply)
            text = state.move_to_str(move)
            state.play(move)
            drawn.append((text, CHANCE, told(state, names)))
            ply += 1
        return drawn

    def commit_moves(
        self,
        db,
        row: GameRow,
        state: State,
        new: Iterable[tuple[str, int, str | None]],
        in_session: tuple[str, int] | None = None,
    ) -> None:
        """Store ``new`` moves after ``row`` (read at its ply) as one claim on the game; with
        ``in_session`` (a session's hash and its user), only while that session is open."""
        new = list(new)
        first_ply = row.ply
        mover = next((player for _, player, _ in new if player >= 0), None)
        self.reader.run_clocks(db, row, mover, state.to_move, utcnow())
        moved = {
            "ply": first_ply + len(new),
            "to_move": state.to_move,
            "turn_started": row.turn_started,
            "deadline": row.deadline,
        }
        # Claim the game at the ply it was read at, before anything else is written: of a move
        # and a time-out (or another move) racing in other processes, one changes nothing.
        # The claim writes the game's new ply, turn and clock too: one statement, not two.
        # Core statements on the tables and the session's connection, not the ORM's bulk
        # update, unit of work or statement handling: they run while this process's write
        # lock (and SQLite's) is held, so every step counts.
        added = [
            {
                "game_id": row.id,
                "ply": ply,
                "text": text,
                "player": player,
                "note": to_stored(note) if isinstance(note, str) else None,  # see from_stored
                "created": utcnow(),
            }
            for ply, (text, player, note) in enumerate(new, start=first_ply)
        ]
        claim, params = CLAIM, {**moved, "claim_id": row.id, "claim_ply": first_ply}
        params["claim_takebacks"] = row.takebacks
        if in_session is not None:
            claim = CLAIM_IN_SESSION
            params.update(session_hash=in_session[0], session_user=in_session[1])
            params["session_now"] = utcnow()
        # The other processes are told by the claim itself (no flush sees Core statements),
        # with what changed if that is all that did (the game goes on, and no live clock
        # changed a seat).
        news = None
        if self.reader.tells_news and not state.is_over and not clocks.live(row):
            news = news_text(first_ply, moved, added, takebacks=row.takebacks)
        told = notice(self.store, db, row.id, news)
        if told is not None:
            claim = claim.returning(told)
        with db.no_autoflush:  # the clock's new values go in the claim, not in a flush before
            claimed = db.connection().execute(claim, params)
        if claimed.rowcount != 1:
            db.rollback()
            self.cache.drop_state(row.id)
            if in_session is not None and not self.reader.session_open(*in_session):
                raise SessionEnded()
            raise ClubError(
                "The game changed at the same time (another move, or it ended on time); "
                "look again.",
                409,
            )
        for name, value in moved.items():  # written above: nothing left for the flush to do
            set_committed_value(row, name, value)
        ply = first_ply + len(added)
        try:
            if added:
                db.connection().execute(ADD_MOVES, added)
            if state.is_over:
                self.finishing.finish(db, row, state, state.result)
            for hook in self.on_moves:
                hook(db, row, state, mover)
            db.commit()
        except (IntegrityError, OperationalError):
            # Another process stored a move at this ply first (primary key), or SQLite refused
            # a write based on a snapshot another writer has just made stale.
            db.rollback()
            self.cache.drop_state(row.id)
            raise ClubError("Another move was made at the same time; look again.", 409) from None
        known = self.cache.of_line(row.id, row.takebacks).moves
        if known is not None and len(known) == first_ply:
            known = (
                *known,
                *(PlayedMove(m["ply"], m["text"], m["player"], m["note"]) for m in added),
            )
        else:
            known = None
        if row.status != "active":
            self.cache.drop_row(row.id)
        self.cache.keep(
            row.id,
            takebacks=row.takebacks,
            live=Live(ply, state),
            moves=known,
            row=row if row.status == "active" else None,
        )
