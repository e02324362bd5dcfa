"""Offers during a game: abort, draw and takeback, each made by a player and answered by the
others, as on lichess and Board Game Arena.

The rules of each kind:

- **abort**: only before each player has moved once. An aborted game has no result: nobody
  wins, it is no draw, and no rating changes (the finish hooks, ratings among them, do not
  run for it). Lists and records say "aborted".
- **draw**: only in a game whose rules can end drawn (:attr:`ludoteca.core.protocol.Game.
  can_end_drawn`, asked of the game, never named here), and not against the computer, which
  plays on. An agreed draw rates as a draw.
- **takeback**: the game goes back to the position before the asker's last move (with
  whatever was played after it), in **casual games only**: a rated game's moves stand,
  since a rating that ignored some moves would rate a game nobody played.

Every other player holding a seat must accept (in Hexagone for 3 or 4, all of them); a
computer seat accepts an abort or a takeback at once. Limits, so that nobody is flooded:
one open offer of each kind per game, and a player whose offer was declined may make that
kind of offer again only after :data:`PAUSE_PLIES` more moves. An offer is answered at the
position it was made in: once anyone moves, an unanswered offer has lapsed.

Every offer and answer is a row of :class:`~.offer_models.OfferEvent`, only ever added: the
other server processes hear each one (the page's players are sent the offers again), and
the game's record lists them (:func:`record_entries`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from ludoteca.core.messages import N_, Text
from ludoteca.core.protocol import TERMINAL, Result
from ludoteca.web.infra.store import GameRow, MoveRow, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.offer_models import OfferEvent
from ludoteca.web.round.storage import claim_as_read

if TYPE_CHECKING:
    from ludoteca.web.round.service import GameService

KINDS = ("abort", "draw", "takeback")
PAUSE_PLIES = 2
"""After a declined offer, how many moves must be played before its maker may make that kind
of offer again."""


@dataclass
class OpenOffer:
    """An offer waiting for answers."""

    kind: str
    seat: int
    ply: int
    accepted: set[int] = field(default_factory=set)


@dataclass
class Offers:
    """A game's offers as its events leave them: the open ones, and the last decline of each
    kind by the seat whose offer it was (``(seat, kind) -> ply``)."""

    open: dict[str, OpenOffer] = field(default_factory=dict)
    declined: dict[tuple[int, str], int] = field(default_factory=dict)


def read_events(db, pk: int) -> list[OfferEvent]:
    return list(
        db.scalars(select(OfferEvent).where(OfferEvent.game_id == pk).order_by(OfferEvent.id))
    )


def fold(events: list[OfferEvent], row: GameRow) -> Offers:
    """The offers of ``row`` after ``events`` (in order). An offer made at another ply than
    the game's, or in a game no longer in progress, has lapsed."""
    out = Offers()
    for e in events:
        current = out.open.get(e.kind)
        if e.action == "offered":
            out.open[e.kind] = OpenOffer(e.kind, e.seat, e.ply)
        elif current is None:
            continue
        elif e.action == "accepted":
            current.accepted.add(e.seat)
        elif e.action == "declined":
            out.declined[(current.seat, e.kind)] = e.ply
            del out.open[e.kind]
        else:  # agreed, lapsed
            del out.open[e.kind]
    for kind, offer in list(out.open.items()):
        if offer.ply != row.ply or row.status != "active":
            del out.open[kind]
    return out


def asked(row: GameRow, offer_seat: int) -> set[int]:
    """The seats whose acceptance an offer by ``offer_seat`` needs: every other seat held by
    a person other than the one who offered, still playing."""
    me = row.seats[offer_seat].user_id
    return {
        s.index
        for s in row.seats
        if s.kind != "bot" and s.user_id is not None and s.user_id != me and not s.resigned
    }


def _my_seats(row: GameRow, user: User) -> list[int]:
    return [s.index for s in row.seats if s.user_id == user.id and not s.resigned]


def _check_kind(kind: Any) -> str:
    if kind not in KINDS:
        raise ClubError("An offer is one of: abort, draw, takeback.")
    return kind


def _last_own_move(db, row: GameRow, seats: list[int]) -> tuple[int, int] | None:
    """The ply and seat of the last move made from one of ``seats``, if any."""
    found = db.execute(
        select(MoveRow.ply, MoveRow.player)
        .where(MoveRow.game_id == row.id, MoveRow.player.in_(seats))
        .order_by(MoveRow.ply.desc())
        .limit(1)
    ).first()
    return None if found is None else (found[0], found[1])


def check_may_offer(
    games: GameService, db, row: GameRow, user: User, kind: str, offers: Offers
) -> int:
    """The seat ``user`` offers ``kind`` from, or :class:`ClubError` saying why they may not."""
    if row.status != "active":
        raise ClubError("Offers are made during a game in progress.", 409)
    mine = _my_seats(row, user)
    if not mine:
        raise ClubError("Only the game's players make offers.", 403)
    seat = mine[0]
    if kind in offers.open:
        raise ClubError("There is already an open offer of this kind; wait for its answer.", 409)
    for s in mine:
        declined_at = offers.declined.get((s, kind))
        if declined_at is not None and row.ply < declined_at + PAUSE_PLIES:
            raise ClubError(
                "Your last offer of this kind was declined: you may make it again after "
                "{count} more moves.",
                429,
                count=declined_at + PAUSE_PLIES - row.ply,
            )
    if kind == "abort":
        moved = set(
            db.scalars(
                select(MoveRow.player)
                .where(MoveRow.game_id == row.id, MoveRow.player >= 0)
                .distinct()
            )
        )
        if all(s.index in moved for s in row.seats):
            raise ClubError(
                "A game can be aborted only before each player has moved once; offer a draw "
                "or resign instead.",
                409,
            )
    elif kind == "draw":
        if not games.make_game(row.game, dict(row.options)).can_end_drawn:
            raise ClubError("This game cannot end in a draw, so no draw can be offered.", 409)
        if any(s.kind == "bot" for s in row.seats):
            raise ClubError("The computer does not agree to draws: it plays on.", 409)
    else:
        if row.rated:
            raise ClubError("Takebacks are for casual games: the moves of a rated game stand.", 409)
        last = _last_own_move(db, row, mine)
        if last is None:
            raise ClubError("You have no move to take back yet.", 409)
        seat = last[1]
    if kind == "draw" and not asked(row, seat):
        raise ClubError("There is nobody to offer a draw to.", 409)
    return seat


def make(games: GameService, pk: int, user: User, kind: Any, *, now: datetime | None = None) -> str:
    """``user`` offers ``kind`` in game ``pk`` (or accepts the same offer if it is theirs to
    answer). Returns what happened: ``offered`` or ``agreed`` (nobody had to be asked)."""
    kind = _check_kind(kind)
    with games.lock(pk), games.store.session() as db:
        row = games.reader.row_in(db, pk)
        if row.status == "active":  # the player to move out of time: the game ends on time
            games.finishing.refuse_if_out_of_time(db, row, Text("Offer refused"))
        offers = fold(read_events(db, pk), row)
        current = offers.open.get(kind)
        if current is not None and set(_my_seats(row, user)) & (
            asked(row, current.seat) - current.accepted
        ):
            return _answer(games, db, row, user, current, accept=True, now=now)
        seat = check_may_offer(games, db, row, user, kind, offers)
        db.add(
            OfferEvent(
                game_id=pk,
                ply=row.ply,
                kind=kind,
                action="offered",
                seat=seat,
                user_id=user.id,
                created=now or utcnow(),
            )
        )
        offer = OpenOffer(kind, seat, row.ply)
        if not asked(row, seat):  # only computer seats to ask: they accept
            _agree(games, db, row, offer, now)
            db.commit()
            return "agreed"
        db.commit()
        return "offered"


def answer(
    games: GameService,
    pk: int,
    user: User,
    kind: Any,
    accept: Any,
    *,
    now: datetime | None = None,
) -> str:
    """``user`` accepts or declines the open offer of ``kind``. Returns ``accepted`` (others
    must still answer), ``agreed`` (the offer took effect) or ``declined``."""
    kind = _check_kind(kind)
    if not isinstance(accept, bool):
        raise ClubError("An answer accepts (true) or declines (false).")
    with games.lock(pk), games.store.session() as db:
        row = games.reader.row_in(db, pk)
        if row.status == "active":
            games.finishing.refuse_if_out_of_time(db, row, Text("Answer refused"))
        offer = fold(read_events(db, pk), row).open.get(kind)
        if offer is None:
            raise ClubError(
                "There is no open offer of this kind to answer (it may have lapsed when "
                "someone moved).",
                409,
            )
        return _answer(games, db, row, user, offer, accept=accept, now=now)


def _answer(
    games: GameService, db, row: GameRow, user: User, offer: OpenOffer, *, accept: bool, now
) -> str:
    mine = sorted(set(_my_seats(row, user)) & (asked(row, offer.seat) - offer.accepted))
    if not mine:
        raise ClubError("This offer is not yours to answer.", 403)
    when = now or utcnow()
    action = "accepted" if accept else "declined"
    for seat in mine if accept else mine[:1]:
        db.add(
            OfferEvent(
                game_id=row.id,
                ply=row.ply,
                kind=offer.kind,
                action=action,
                seat=seat,
                user_id=user.id,
                created=when,
            )
        )
        offer.accepted.add(seat)
    if accept and offer.accepted >= asked(row, offer.seat):
        _agree(games, db, row, offer, now)
        action = "agreed"
    db.commit()
    return action


def _claim(db, row: GameRow, **values: Any) -> None:
    """Change the game only as it was read (active, at this ply): of an agreement and a move
    or a time-out racing in other processes, one changes nothing."""
    if not claim_as_read(db, row, **values):
        raise ClubError("The game changed at the same time; look again.", 409)


def _agree(games: GameService, db, row: GameRow, offer: OpenOffer, now) -> None:
    """Everyone asked accepted ``offer``: record it and change the game (not committed)."""
    state = games.reader.state_in(db, row)
    event = OfferEvent(
        game_id=row.id,
        ply=row.ply,
        kind=offer.kind,
        action="agreed",
        seat=offer.seat,
        created=now or utcnow(),
    )
    if offer.kind == "draw":
        _claim(db, row, status="finished")
        db.add(event)
        games.finishing.finish(db, row, state, Result.by_agreement(state))
    elif offer.kind == "abort":
        _claim(db, row, status="finished")
        db.add(event)
        # Not through the finish hooks: an aborted game rates nobody and counts nowhere.
        games.changes.note()
        games.cache.drop_row(row.id)
        row.status = "finished"
        row.finished = now or utcnow()
        row.to_move = TERMINAL
        row.result = Result.aborted_at(state).to_json(state)
        row.deadline = None
    else:
        _take_back(games, db, row, offer, event, now)
    # The kept state and moves are the game's before the change: read it again.
    games.cache.forget(row.id)


def _take_back(games: GameService, db, row: GameRow, offer: OpenOffer, event, now) -> None:
    last = _last_own_move(db, row, [offer.seat])
    if last is None:  # pragma: no cover - checked when offered, and the game is at that ply
        raise ClubError("There is no move to take back.", 409)
    back_to = last[0]
    undone = list(
        db.scalars(
            select(MoveRow.text)
            .where(MoveRow.game_id == row.id, MoveRow.ply >= back_to)
            .order_by(MoveRow.ply)
        )
    )
    texts = db.scalars(
        select(MoveRow.text)
        .where(MoveRow.game_id == row.id, MoveRow.ply < back_to)
        .order_by(MoveRow.ply)
    ).all()
    state = games.start_state(row)
    for text in texts:
        state.play(text)
    # A new count of takebacks: every process's kept game of the old line is dropped when
    # it next reads the game, and a move claimed on it is refused (:mod:`.cached`).
    _claim(db, row, ply=back_to, takebacks=row.takebacks + 1)
    db.execute(delete(MoveRow).where(MoveRow.game_id == row.id, MoveRow.ply >= back_to))
    event.undone = undone
    db.add(event)
    row.ply = back_to
    row.takebacks = row.takebacks + 1
    row.to_move = state.to_move
    games.reader.run_clocks(db, row, None, state.to_move, now or utcnow())


# --- what players are shown --------------------------------------------------------------------
def view(games: GameService, pk: int, user: User | None) -> dict[str, Any]:
    """The offers of game ``pk`` as ``user`` sees them: the open ones (who made each, who
    has accepted, whether it is theirs to answer) and the kinds they may offer now."""
    with games.store.reading() as db:
        row = games.reader.row_in(db, pk)
        offers = fold(read_events(db, pk), row)
        mine = set(_my_seats(row, user)) if user is not None else set()
        names = {s.index: (s.user.name if s.user is not None else "") for s in row.seats}
        shown = []
        for offer in offers.open.values():
            waiting = asked(row, offer.seat) - offer.accepted
            shown.append(
                {
                    "kind": offer.kind,
                    "seat": offer.seat,
                    "by": names.get(offer.seat, ""),
                    "yours": offer.seat in mine,
                    "to_answer": bool(mine & waiting),
                    "waiting": [names.get(s, "") for s in sorted(waiting)],
                }
            )
        may = []
        if mine and user is not None:
            for kind in KINDS:
                try:
                    check_may_offer(games, db, row, user, kind, offers)
                except ClubError:
                    continue
                may.append(kind)
        return {"type": "offers", "game": pk, "ply": row.ply, "open": shown, "may": may}


def record_entries(db, pk: int) -> list[dict[str, Any]]:
    """The game's offers and answers as its record lists them (:attr:`Record.offers`)."""
    out = []
    for e in read_events(db, pk):
        entry: dict[str, Any] = {"ply": e.ply, "kind": e.kind, "action": e.action, "seat": e.seat}
        if e.undone:
            entry["undone"] = list(e.undone)
        out.append(entry)
    return out


OFFER_LINES = {
    ("abort", "offered"): N_("{name} offered to abort the game"),
    ("draw", "offered"): N_("{name} offered a draw"),
    ("takeback", "offered"): N_("{name} asked to take back a move"),
    ("abort", "agreed"): N_("The game was aborted"),
    ("draw", "agreed"): N_("The draw was agreed"),
    ("takeback", "agreed"): N_("Taken back: {moves}"),
}
ANSWER_LINES = {"accepted": N_("{name} accepted"), "declined": N_("{name} declined")}


def replay_lines(db, pk: int, names: list[str]) -> list[dict[str, Any]]:
    """The game's offers in words for its replay: at which ply, and what happened."""
    out = []
    for e in read_events(db, pk):
        name = names[e.seat] if 0 <= e.seat < len(names) else "?"
        template = OFFER_LINES.get((e.kind, e.action)) or ANSWER_LINES.get(e.action)
        if template is None:
            continue
        fields = {"name": name, "moves": ", ".join(e.undone or [])}
        out.append({"ply": e.ply, "kind": e.kind, "text": Text(template, fields)})
    return out


def awaiting(store, user_id: int, game_ids: list[int]) -> set[int]:
    """Which of these games (the member's own, in progress) have an offer waiting for
    ``user_id``'s answer: what the lobby lists as waiting for them, with their turns."""
    if not game_ids:
        return set()
    with store.read_connection() as conn:
        rows = conn.execute(
            select(OfferEvent.game_id, OfferEvent.kind, OfferEvent.action, OfferEvent.user_id)
            .join(GameRow, GameRow.id == OfferEvent.game_id)
            .where(
                OfferEvent.game_id.in_(game_ids),
                OfferEvent.ply == GameRow.ply,
                GameRow.status == "active",
            )
            .order_by(OfferEvent.id)
        ).all()
    open_to_me: dict[tuple[int, str], bool] = {}
    for pk, kind, action, by in rows:
        key = (pk, kind)
        if action == "offered":
            open_to_me[key] = by != user_id
        elif action == "accepted" and by == user_id:
            open_to_me[key] = False
        elif action in ("declined", "agreed", "lapsed"):
            open_to_me.pop(key, None)
    return {pk for (pk, _), waiting in open_to_me.items() if waiting}
