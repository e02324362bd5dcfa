"""Tournaments for members: creating, joining, withdrawing and pausing, and what the pages
show (standings counted from the games, each round's pairings, the podium).

Running them (starting, pairing, ending) is :mod:`.director`'s; the pairings themselves are
:mod:`ludoteca.tournaments`'s, shared with ``ludoteca tournament``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select

from ludoteca.core.messages import N_, Text
from ludoteca.tournaments.arena import arena_points
from ludoteca.tournaments.results import Played
from ludoteca.tournaments.roundrobin import MAX_PLAYERS as RR_MAX
from ludoteca.tournaments.roundrobin import MIN_PLAYERS as RR_MIN
from ludoteca.tournaments.standings import standings
from ludoteca.web.infra.store import Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation.service import is_moderator
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.service import GameSettings
from ludoteca.web.tournaments import limits
from ludoteca.web.tournaments.models import Tournament, TournamentGame, TournamentPlayer

FORMS = ("arena", "swiss", "round-robin")


@dataclass
class NewTournament:
    """A checked request for a tournament (:func:`checked`)."""

    name: str
    game: str
    options: dict[str, Any]
    form: str
    settings: GameSettings
    starts_in: int
    minutes: int | None = None
    rounds: int | None = None
    max_players: int = limits.MAX_PLAYERS
    repeat_days: int | None = None


LABELS = {
    "starts_in": N_("Starts in (minutes)"),
    "minutes": N_("Arena: length in minutes"),
    "rounds": N_("Swiss: rounds"),
    "table": N_("Round-robin: players at each table (games of more players)"),
    "max_players": N_("Most players (empty: as many as the format takes)"),
    "repeat_days": N_("The club's: repeat every (days; empty: once)"),
}
"""The form's number fields by the labels the page shows them with."""


def _number(data: dict[str, str], key: str, low: int, high: int, default: int) -> int:
    text = (data.get(key) or "").strip() or str(default)
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ClubError(
            "{field}: a whole number from {low} to {high}, please.",
            field=Text(LABELS[key]),
            low=low,
            high=high,
        )
    return value


def checked(data: dict[str, str], settings: GameSettings) -> NewTournament:
    """The tournament the form asks for, or a refusal naming what is wrong."""
    name = " ".join((data.get("name") or "").split())
    if not name or len(name) > limits.NAME_CHARS or not name.isprintable():
        raise ClubError("Give the tournament a name of 1 to {n} characters.", n=limits.NAME_CHARS)
    game_id = data.get("game", "")
    games = available_games()
    if game_id not in games:
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    form = data.get("form", "")
    if form not in FORMS:
        raise ClubError("Unknown tournament format {form!r}.", form=form[:20])
    if settings.clock is None:
        raise ClubError(
            "A tournament needs a time control (live or correspondence): an untimed game "
            "could hold up a round for ever."
        )
    cls = games[game_id]
    options: dict[str, Any] = {}
    size = 2
    if form == "round-robin" and cls.max_players > 2:
        size = _number(data, "table", 2, cls.max_players, 2)
    if not cls.min_players <= size <= cls.max_players:
        raise ClubError("{title} is not played by two.", title=cls.title)
    if cls.min_players != cls.max_players:
        options["players"] = size
    out = NewTournament(
        name=name,
        game=game_id,
        options=options,
        form=form,
        settings=settings,
        starts_in=_number(data, "starts_in", 0, limits.STARTS_WITHIN_MINUTES, 5),
    )
    if form == "arena":
        out.minutes = _number(data, "minutes", *limits.ARENA_MINUTES, 30)
    if form == "swiss":
        out.rounds = _number(data, "rounds", *limits.SWISS_ROUNDS, 5)
    top = RR_MAX if form == "round-robin" else limits.MAX_PLAYERS
    low = max(RR_MIN if form == "round-robin" else 2, size)
    out.max_players = _number(data, "max_players", low, top, top)
    if (data.get("repeat_days") or "").strip():
        out.repeat_days = _number(data, "repeat_days", 1, limits.REPEAT_DAYS, 7)
    return out


@dataclass
class Line:
    """One line of the standings as the page shows it."""

    rank: int
    user_id: int
    name: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    buchholz: float
    sonneborn_berger: float
    on_fire: bool = False
    state: str = ""


@dataclass
class View:
    tournament: Tournament
    creator: str | None
    lines: list[Line]
    rounds: list[tuple[int, list[dict[str, Any]]]]
    me: TournamentPlayer | None
    my_game: int | None
    names: dict[int, str] = field(default_factory=dict)

    @property
    def podium(self) -> list[Line]:
        return self.lines[:3] if self.tournament.status == "finished" else []


def played_of(games: list[TournamentGame]) -> list[Played]:
    """The finished pairings as the pairing functions read them, in the order they ended."""
    done = [g for g in games if g.points is not None]
    done.sort(key=lambda g: (g.finished or g.created, g.id))
    return [Played(g.round, tuple(g.players), tuple(g.points or ())) for g in done]


def table_lines(t: Tournament, players: list[int], games: list[TournamentGame]) -> list[Any]:
    """The standings (:func:`ludoteca.tournaments.standings`), arena points first in an arena."""
    played = played_of(games)
    extra = None
    if t.form == "arena":
        extra = {p: float(x.points) for p, x in arena_points(played).items()}
    return standings(players, played, extra)


@dataclass(frozen=True)
class GameOf:
    """The tournament a game belongs to, as its page names it."""

    id: int
    name: str
    form: str
    round: int


class Tournaments:
    """The club's tournaments over one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def of_game(self, game: int) -> GameOf | None:
        """The tournament whose pairing ``game`` is, if any (one indexed read)."""
        with self.store.reading() as db:
            found = db.execute(
                select(Tournament.id, Tournament.name, Tournament.form, TournamentGame.round)
                .join(TournamentGame, TournamentGame.tournament_id == Tournament.id)
                .where(TournamentGame.game_id == game)
            ).first()
        return GameOf(*found) if found is not None else None

    # --- members' requests --------------------------------------------------------------------
    def create(self, user: User, new: NewTournament) -> int:
        with self.store.session() as db:
            if new.repeat_days is not None and not is_moderator(db, user):
                raise ClubError("Only the club's moderators schedule recurring tournaments.", 403)
            mine = db.scalar(
                select(func.count())
                .select_from(Tournament)
                .where(
                    Tournament.created_by == user.id,
                    Tournament.status.in_(("upcoming", "running")),
                )
            )
            if mine >= limits.OPEN_PER_MEMBER and new.repeat_days is None:
                raise ClubError(
                    "You already have {n} tournaments upcoming or running, the most one "
                    "member may have at once.",
                    409,
                    n=limits.OPEN_PER_MEMBER,
                )
            row = Tournament(
                name=new.name,
                game=new.game,
                options=new.options,
                form=new.form,
                rated=new.settings.rated,
                clock=new.settings.clock,
                created_by=user.id,
                status="upcoming",
                starts=utcnow() + timedelta(minutes=new.starts_in),
                minutes=new.minutes,
                rounds=new.rounds,
                max_players=new.max_players,
                round=0,
                seed=secrets.randbits(62),
                repeat_days=new.repeat_days,
            )
            db.add(row)
            db.flush()
            db.add(TournamentPlayer(tournament_id=row.id, user_id=user.id))
            db.commit()
            return row.id

    def join(self, pk: int, user: User) -> None:
        """Join an upcoming tournament, or an arena or Swiss under way (paired from the next
        round); joining again after withdrawing comes back."""
        with self.store.session() as db:
            t = self._get(db, pk)
            if t.status not in ("upcoming", "running") or (
                t.status == "running" and t.form == "round-robin"
            ):
                raise ClubError("This tournament takes no more players.", 409)
            me = db.get(TournamentPlayer, (pk, user.id))
            if me is not None:
                me.withdrawn = False
                me.paused = False
                db.commit()
                return
            count = db.scalar(
                select(func.count())
                .select_from(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == pk, TournamentPlayer.withdrawn.is_(False))
            )
            if count >= t.max_players:
                raise ClubError("This tournament is full.", 409)
            db.add(TournamentPlayer(tournament_id=pk, user_id=user.id))
            db.commit()

    def withdraw(self, pk: int, user: User) -> None:
        """Leave: before the start the place is given back; once under way the player is
        paired no more, and the games played still count."""
        with self.store.session() as db:
            t = self._get(db, pk)
            me = db.get(TournamentPlayer, (pk, user.id))
            if me is None:
                raise ClubError("You are not in this tournament.", 409)
            if t.status == "upcoming":
                db.execute(
                    delete(TournamentPlayer).where(
                        TournamentPlayer.tournament_id == pk, TournamentPlayer.user_id == user.id
                    )
                )
            else:
                me.withdrawn = True
            db.commit()

    def start_now(self, pk: int, user: User) -> None:
        """The creator starts an upcoming tournament at once (the director's next look)."""
        with self.store.session() as db:
            t = self._get(db, pk)
            if t.created_by != user.id:
                raise ClubError("Only the tournament's creator may start it early.", 403)
            if t.status != "upcoming":
                raise ClubError("This tournament has started already.", 409)
            t.starts = utcnow()
            db.commit()

    def pause(self, pk: int, user: User) -> bool:
        """Pause (or come back): a paused player is not paired; True if now paused."""
        with self.store.session() as db:
            t = self._get(db, pk)
            me = db.get(TournamentPlayer, (pk, user.id))
            if me is None or me.withdrawn:
                raise ClubError("You are not in this tournament.", 409)
            if t.status == "finished":
                raise ClubError("This tournament is over.", 409)
            me.paused = not me.paused
            db.commit()
            return me.paused

    # --- reading ------------------------------------------------------------------------------
    def lists(self) -> dict[str, list[tuple[Tournament, int]]]:
        """Upcoming, running and the latest finished tournaments, each with its players."""
        with self.store.reading() as db:
            counts = dict(
                db.execute(
                    select(TournamentPlayer.tournament_id, func.count())
                    .where(TournamentPlayer.withdrawn.is_(False))
                    .group_by(TournamentPlayer.tournament_id)
                ).all()
            )
            out: dict[str, list[tuple[Tournament, int]]] = {}
            for status, order in (
                ("upcoming", Tournament.starts),
                ("running", Tournament.starts.desc()),
                ("finished", Tournament.finished.desc()),
            ):
                rows = db.scalars(
                    select(Tournament).where(Tournament.status == status).order_by(order).limit(50)
                ).all()
                out[status] = [(t, counts.get(t.id, 0)) for t in rows]
            return out

    def of_member(self, user_id: int, limit: int = 20) -> list[tuple[Tournament, int | None]]:
        """A member's tournaments, newest first, with their final place in finished ones."""
        with self.store.reading() as db:
            rows = db.scalars(
                select(Tournament)
                .join(TournamentPlayer, TournamentPlayer.tournament_id == Tournament.id)
                .where(TournamentPlayer.user_id == user_id)
                .order_by(Tournament.starts.desc())
                .limit(limit)
            ).all()
            out = []
            for t in rows:
                place = None
                if t.status == "finished":
                    players, games = self._field(db, t.id)
                    place = next(
                        (s.rank for s in table_lines(t, players, games) if s.player == user_id),
                        None,
                    )
                out.append((t, place))
            return out

    def view(self, pk: int, user: User | None) -> View:
        with self.store.reading() as db:
            t = self._get(db, pk)
            entries = db.scalars(
                select(TournamentPlayer).where(TournamentPlayer.tournament_id == pk)
            ).all()
            games = list(
                db.scalars(
                    select(TournamentGame)
                    .where(TournamentGame.tournament_id == pk)
                    .order_by(TournamentGame.round, TournamentGame.id)
                )
            )
            ids = {e.user_id for e in entries} | {p for g in games for p in g.players}
            if t.created_by is not None:
                ids.add(t.created_by)
            names = dict(db.execute(select(User.id, User.name).where(User.id.in_(ids))).all())
        state = {
            e.user_id: ("withdrawn" if e.withdrawn else "paused" if e.paused else "")
            for e in entries
        }
        field_ = sorted(set(state) | {p for g in games for p in g.players})
        fire = arena_points(played_of(games)) if t.form == "arena" else {}
        lines = [
            Line(
                rank=s.rank,
                user_id=s.player,
                name=names.get(s.player, "?"),
                points=s.points,
                games=s.games,
                wins=s.wins,
                draws=s.draws,
                losses=s.losses,
                buchholz=s.buchholz,
                sonneborn_berger=s.sonneborn_berger,
                on_fire=s.player in fire and fire[s.player].on_fire,
                state=state.get(s.player, ""),
            )
            for s in table_lines(t, field_, games)
        ]
        by_round: dict[int, list[dict[str, Any]]] = {}
        for g in games:
            by_round.setdefault(g.round, []).append(
                {
                    "players": [names.get(p, "?") for p in g.players],
                    "game": g.game_id,
                    "points": g.points,
                    "bye": len(g.players) == 1,
                }
            )
        me = next((e for e in entries if user is not None and e.user_id == user.id), None)
        my_game = None
        if user is not None:
            my_game = next(
                (
                    g.game_id
                    for g in reversed(games)
                    if g.points is None and g.game_id is not None and user.id in g.players
                ),
                None,
            )
        rounds = sorted(by_round.items(), reverse=True)
        return View(t, names.get(t.created_by or 0), lines, rounds, me, my_game, names)

    # --- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _get(db, pk: int) -> Tournament:
        t = db.get(Tournament, pk)
        if t is None:
            raise ClubError("There is no tournament {pk}.", 404, pk=pk)
        return t

    @staticmethod
    def _field(db, pk: int) -> tuple[list[int], list[TournamentGame]]:
        players = list(
            db.scalars(select(TournamentPlayer.user_id).where(TournamentPlayer.tournament_id == pk))
        )
        games = list(db.scalars(select(TournamentGame).where(TournamentGame.tournament_id == pk)))
        return players, games
