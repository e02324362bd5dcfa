"""Challenges and rematches.

A challenge names a user, a game and its settings (rated, clock, where the challenger
sits). The challenged user accepts (a game is made with both seated, and starts at once) or
declines; the challenger may withdraw it while it waits. A rematch is a challenge to the
other player of a finished game with the same settings and the seats swapped; asking for a
rematch the other player has already offered accepts theirs. Against the computer a rematch
needs no one's consent and starts at once; with more people, the new game keeps their seats
for them. Every step notifies the other person (:mod:`ludoteca.web.notify.service`).

A challenge from someone the challenged user blocks is kept but hidden from them, never
notified: the block is not announced to the person blocked.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Row, bindparam, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from ludoteca.core.messages import Text
from ludoteca.web.challenges.models import Challenge
from ludoteca.web.infra.store import GameRow, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation.models import Block
from ludoteca.web.notify.service import notify
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec

PENDING_PER_USER = 10
"""Challenges one user may have waiting for answers at once."""
PER_PAIR = 5
PER_PAIR_WINDOW = timedelta(hours=1)
"""Challenges (rematches included) one user may send another within the window, whatever
became of them: challenging and withdrawing again and again must not flood someone's
bell and mailbox."""
SEATS = ("first", "second", "random")


@dataclass
class Outcome:
    """What a rematch request led to: a game to go to, or a challenge waiting for an answer."""

    game: int | None = None
    challenge: int | None = None


def two_player_options(game_id: str) -> dict[str, Any]:
    """The options that make ``game_id`` a two-player game; refused if it cannot be one."""
    cls = available_games().get(game_id)
    if cls is None:
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    if not cls.min_players <= 2 <= cls.max_players:
        raise ClubError(
            "{title} is not played by two: challenge with a new game instead.", title=cls.title
        )
    return {} if cls.min_players == cls.max_players else {"players": 2}


def _title(game_id: str) -> str:
    cls = available_games().get(game_id)
    return cls.title if cls is not None else game_id


class RematchCrossed(Exception):
    """Two rematch offers for one game at once: the second is not stored (the partial unique
    index of migration ``0010``); its sender accepts the first instead."""


class Challenges:
    def __init__(self, store: Store, games: GameService) -> None:
        self.store = store
        self.games = games

    # --- making one ---------------------------------------------------------------------------
    def create(
        self,
        challenger: User,
        name: str,
        game_id: str,
        seat: str,
        settings: GameSettings,
        *,
        rematch_of: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> int:
        if seat not in SEATS:
            raise ClubError("Seat must be one of {SEATS}.", SEATS=", ".join(SEATS))
        if options is None:
            options = two_player_options(game_id)
        self.games.make_game(game_id, options)  # refuses bad options with the reason
        with self.store.session() as db:
            other = db.scalar(select(User).where(User.name_key == name.strip().lower()))
            if other is None:
                raise ClubError("There is no user called {name!r}.", 404, name=name.strip()[:40])
            if other.id == challenger.id:
                raise ClubError("You cannot challenge yourself.")
            pending = db.scalar(
                select(func.count())
                .select_from(Challenge)
                .where(Challenge.challenger_id == challenger.id, Challenge.status == "pending")
            )
            if (pending or 0) >= PENDING_PER_USER:
                raise ClubError(
                    "You have {PENDING_PER_USER} challenges waiting for answers, the most one "
                    "may: withdraw one first.",
                    429,
                    PENDING_PER_USER=PENDING_PER_USER,
                )
            twice = db.scalar(
                select(Challenge.id).where(
                    Challenge.challenger_id == challenger.id,
                    Challenge.challenged_id == other.id,
                    Challenge.status == "pending",
                    Challenge.rematch_of.is_(None)
                    if rematch_of is None
                    else Challenge.rematch_of == rematch_of,
                )
            )
            if twice is not None:
                raise ClubError(
                    "You have already challenged {name}; wait for the answer.", 409, name=other.name
                )
            lately = db.scalar(
                select(func.count())
                .select_from(Challenge)
                .where(
                    Challenge.challenger_id == challenger.id,
                    Challenge.challenged_id == other.id,
                    Challenge.created > utcnow() - PER_PAIR_WINDOW,
                )
            )
            if (lately or 0) >= PER_PAIR:
                raise ClubError(
                    "You have challenged {name} {PER_PAIR} times within the hour, the most one "
                    "may: wait a while before asking again.",
                    429,
                    name=other.name,
                    PER_PAIR=PER_PAIR,
                )
            hidden = db.get(Block, (other.id, challenger.id)) is not None
            row = Challenge(
                challenger_id=challenger.id,
                challenged_id=other.id,
                game=game_id,
                options=options,
                seat=seat,
                rated=settings.rated,
                clock=settings.clock,
                status="pending",
                hidden=hidden,
                rematch_of=rematch_of,
                created=utcnow(),
            )
            db.add(row)
            try:
                db.flush()
            except IntegrityError:
                if rematch_of is None:
                    raise
                db.rollback()  # the other player offered a rematch at the same moment
                raise RematchCrossed from None
            if not hidden:
                if rematch_of is None:
                    text = Text(
                        "{name} challenges you to {game}",
                        {"name": challenger.name, "game": _title(game_id)},
                    )
                    notify(db, other.id, "challenge", text, "/challenges")
                else:
                    text = Text(
                        "{name} offers a rematch of {game} #{number}",
                        {"name": challenger.name, "game": _title(game_id), "number": rematch_of},
                    )
                    notify(db, other.id, "rematch", text, f"/games/{rematch_of}")
            db.commit()
            return row.id

    # --- answering ----------------------------------------------------------------------------
    def _pending(self, db: Session, pk: int) -> Challenge:
        row = db.get(Challenge, pk)
        if row is None:
            raise ClubError("There is no such challenge.", 404)
        if row.status != "pending":
            raise ClubError("This challenge has already been {status_}.", 409, status_=row.status)
        return row

    @staticmethod
    def _decide(db: Session, pk: int, status: str) -> None:
        """Move challenge ``pk`` from pending to ``status`` in one ``UPDATE``: of an accept,
        a decline and a withdrawal sent at once, only the first decides (the others are
        refused, and nobody is told of a decision that did not happen)."""
        claimed = db.execute(
            update(Challenge)
            .where(Challenge.id == pk, Challenge.status == "pending")
            .values(status=status, answered=utcnow()),
            execution_options={"synchronize_session": False},
        ).rowcount
        if claimed != 1:
            db.rollback()
            now = db.scalar(select(Challenge.status).where(Challenge.id == pk))
            raise ClubError(
                "This challenge has already been {status_}.", 409, status_=now or "answered"
            )

    def accept(self, pk: int, user: User) -> int:
        """Accept challenge ``pk`` as the challenged user: make the game and start it.

        The challenge is claimed first (one ``UPDATE`` from pending), so accepting twice at
        once makes one game; if the game cannot be made, the claim is given back."""
        with self.store.session() as db:
            row = self._pending(db, pk)
            if row.challenged_id != user.id or row.hidden:
                raise ClubError("This challenge is not for you.", 403)
            self._decide(db, pk, "accepted")
            db.commit()
            challenger = row.challenger
            first = row.seat == "first" or (row.seat == "random" and secrets.randbelow(2) == 0)
            game_id, options = row.game, dict(row.options or {})
            settings = GameSettings(rated=row.rated, clock=row.clock, rematch_of=row.rematch_of)
        mine, theirs = SeatSpec(kind="me"), SeatSpec(kind="user", user=user.name)
        seats = [mine, theirs] if first else [theirs, mine]
        try:
            game = self.games.create(challenger, game_id, options, seats, settings)
            if not any(s.user_id == user.id for s in self.games.row(game).seats):
                self.games.join(game, user)
        except ClubError:
            with self.store.session() as db:
                db.execute(
                    update(Challenge)
                    .where(Challenge.id == pk)
                    .values(status="pending", answered=None)
                )
                try:
                    db.commit()
                except IntegrityError:  # a new rematch offer was made meanwhile: it stands
                    db.rollback()
                    db.execute(
                        update(Challenge).where(Challenge.id == pk).values(status="cancelled")
                    )
                    db.commit()
            raise
        with self.store.session() as db:
            row = db.get(Challenge, pk)
            assert row is not None
            row.game_id = game
            text = Text(
                "{name} accepted your challenge: {game} #{number} has started",
                {"name": user.name, "game": _title(game_id), "number": game},
            )
            kind = "rematch" if row.rematch_of is not None else "challenge"
            notify(db, row.challenger_id, kind, text, f"/games/{game}")
            db.commit()
        return game

    def decline(self, pk: int, user: User) -> None:
        with self.store.session() as db:
            row = self._pending(db, pk)
            if row.challenged_id != user.id:
                raise ClubError("This challenge is not for you.", 403)
            self._decide(db, pk, "declined")
            if not row.hidden:
                text = Text(
                    "{name} declined your challenge to {game}",
                    {"name": user.name, "game": _title(row.game)},
                )
                notify(db, row.challenger_id, "challenge", text, "/challenges")
            db.commit()

    def cancel(self, pk: int, user: User) -> None:
        with self.store.session() as db:
            row = self._pending(db, pk)
            if row.challenger_id != user.id:
                raise ClubError("Only the challenger can withdraw a challenge.", 403)
            self._decide(db, pk, "cancelled")
            db.commit()

    # --- lists --------------------------------------------------------------------------------
    def waiting(self, user: User) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The challenges waiting for ``user``'s answer, and those ``user`` is waiting on, as
        :func:`described` gives them. Read with one Core statement: the lobby asks at every
        member's visit, and the ORM's objects cost three times the reading."""
        with self.store.read_connection() as conn:
            rows = conn.execute(_WAITING, {"member": user.id}).all()
        incoming = [described(r) for r in rows if r.challenged_id == user.id and not r.hidden]
        outgoing = [described(r) for r in rows if r.challenger_id == user.id]
        return incoming, outgoing

    def rematch_offers(
        self, pk: int, user: User | None
    ) -> tuple[Challenge | None, Challenge | None]:
        """On finished game ``pk``: the rematch offered to ``user``, and the one ``user`` made."""
        if user is None:
            return None, None
        with self.store.reading() as db:
            rows = db.scalars(
                select(Challenge).where(
                    Challenge.rematch_of == pk,
                    Challenge.status == "pending",
                    or_(Challenge.challenger_id == user.id, Challenge.challenged_id == user.id),
                )
            ).all()
        to_me = next((r for r in rows if r.challenged_id == user.id and not r.hidden), None)
        mine = next((r for r in rows if r.challenger_id == user.id), None)
        return to_me, mine

    # --- rematches ----------------------------------------------------------------------------
    def rematch(self, pk: int, user: User) -> Outcome:
        row: GameRow = self.games.row(pk)
        if row.status != "finished":
            raise ClubError("A rematch can be asked for once the game is over.", 409)
        if not any(s.user_id == user.id for s in row.seats):
            raise ClubError("Only the game's players can ask for a rematch.", 403)
        made = self.rematch_game(pk)
        if made is not None:
            return Outcome(game=made)
        offered, mine = self.rematch_offers(pk, user)
        if offered is not None:
            return Outcome(game=self.accept(offered.id, user))
        if mine is not None:
            return Outcome(challenge=mine.id)
        n = len(row.seats)
        old = sorted(row.seats, key=lambda s: s.index)
        rotated = [old[(i - 1) % n] for i in range(n)]  # everyone moves one seat on
        people = {s.user_id for s in old if s.kind == "user" and s.user_id is not None}
        others = people - {user.id}
        settings = GameSettings(
            rated=row.rated, private=row.private, clock=row.clock, rematch_of=pk
        )
        if n == 2 and len(others) == 1:
            other = next(s for s in old if s.user_id in others)
            assert other.user is not None
            my_new = next(i for i, s in enumerate(rotated) if s.user_id == user.id)
            try:
                challenge = self.create(
                    user,
                    other.user.name,
                    row.game,
                    "first" if my_new == 0 else "second",
                    settings,
                    rematch_of=pk,
                    options=dict(row.options or {}),
                )
            except RematchCrossed:
                return self._after_crossing(pk, user)
            return Outcome(challenge=challenge)
        specs = []
        for seat in rotated:
            if seat.kind == "bot":
                specs.append(SeatSpec(kind="bot", bot=seat.bot))
            elif seat.user_id == user.id:
                specs.append(SeatSpec(kind="me"))
            elif seat.user is not None:
                specs.append(SeatSpec(kind="user", user=seat.user.name))
            else:
                specs.append(SeatSpec(kind="open"))
        game = self.games.create(user, row.game, dict(row.options or {}), specs, settings)
        if others:
            with self.store.session() as db:
                for uid in others:
                    text = Text(
                        "{name} offers a rematch: join {game} #{number}",
                        {"name": user.name, "game": _title(row.game), "number": game},
                    )
                    notify(db, uid, "rematch", text, f"/games/{game}")
                db.commit()
        return Outcome(game=game)

    def _after_crossing(self, pk: int, user: User) -> Outcome:
        """Our offer met another for the same game: accept theirs (or, if the game was made
        meanwhile, go to it)."""
        offered, mine = self.rematch_offers(pk, user)
        if offered is not None:
            try:
                return Outcome(game=self.accept(offered.id, user))
            except ClubError:
                pass  # answered meanwhile; what it led to is read below
        made = self.rematch_game(pk)
        if made is not None:
            return Outcome(game=made)
        if mine is not None:
            return Outcome(challenge=mine.id)
        raise ClubError("The rematch was answered at the same time; look again.", 409)

    def rematch_game(self, pk: int) -> int | None:
        """The game made as the rematch of finished game ``pk``, if there is one."""
        with self.store.read_connection() as conn:
            return conn.execute(
                select(GameRow.id).where(GameRow.rematch_of == pk)
            ).scalar_one_or_none()


def described(row: Row) -> dict[str, Any]:
    """What the lobby and the challenges page show of a challenge, from its row as
    :meth:`Challenges.waiting` reads it (with the names of its two members)."""
    from ludoteca.web.round import clocks

    return {
        "id": row.id,
        "game": row.game,
        "title": _title(row.game),
        "challenger": row.challenger_name,
        "challenged": row.challenged_name,
        "seat": row.seat,
        "rated": row.rated,
        "clock": str(clocks.describe(row.clock)),
        "clock_text": clocks.describe(row.clock),
        "rematch_of": row.rematch_of,
        "created": row.created,
    }


def _waiting_statement():
    challenges = Challenge.__table__
    challenger, challenged = aliased(User.__table__), aliased(User.__table__)
    member = bindparam("member")
    return (
        select(
            challenges,
            challenger.c.name.label("challenger_name"),
            challenged.c.name.label("challenged_name"),
        )
        .join(challenger, challenger.c.id == challenges.c.challenger_id)
        .join(challenged, challenged.c.id == challenges.c.challenged_id)
        .where(
            challenges.c.status == "pending",
            or_(challenges.c.challenger_id == member, challenges.c.challenged_id == member),
        )
        .order_by(challenges.c.id.desc())
        .limit(100)
    )


_WAITING = _waiting_statement()
