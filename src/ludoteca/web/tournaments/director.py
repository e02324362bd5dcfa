"""The tournament director: starts tournaments when their time comes, pairs their rounds,
makes their games and ends them. Every server process runs one (:meth:`Director.run`).

Restart-safe by construction: everything it knows is in the database. A round's pairings are
stored in the same transaction that claims the round, by an update of ``tournaments.round``
conditional on the number read, so of two processes (or a process and its restarted self)
one pairs each round and the other changes nothing. Each pairing's game is then made
through the round service (:meth:`~ludoteca.web.round.setup.SetUp.create` and ``join``); a
pairing whose game was not made (its process stopped) is made by the next look after
:data:`~.limits.MAKE_GAME_AGAIN_SECONDS`. A game's end reaches its pairing through the
finish hook (:func:`finish_hook`), in the transaction that ends the game: no result is lost
between the two.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from datetime import timedelta

import anyio
from sqlalchemy import select, update

from ludoteca.core.messages import Text
from ludoteca.core.protocol import State
from ludoteca.tournaments.arena import arena_points, pair_arena
from ludoteca.tournaments.results import BYE_POINTS, points_for
from ludoteca.tournaments.roundrobin import smallest_table, tables
from ludoteca.tournaments.swiss import pair_swiss
from ludoteca.web.infra.store import GameRow, MoveRow, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.notify.service import notify
from ludoteca.web.round.errors import NewGameRefused
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec
from ludoteca.web.tournaments import limits
from ludoteca.web.tournaments.models import Tournament, TournamentGame, TournamentPlayer
from ludoteca.web.tournaments.service import played_of, table_lines

log = logging.getLogger("ludoteca.web")


def finish_hook(db, row: GameRow, state: State) -> None:
    """A game ends: if it is a tournament's, its pairing takes the points (same transaction).

    A player who ran out of time without a single move has left: they are paused (as an
    arena pauses whoever walks away), so they are not paired again and again to lose on
    time; the tournament's page brings them back."""
    pairing = db.scalar(select(TournamentGame).where(TournamentGame.game_id == row.id))
    if pairing is None or pairing.points is not None:
        return
    result = row.result or {}
    pairing.points = list(points_for(len(pairing.players), result.get("winners") or []))
    pairing.finished = utcnow()
    for seat in result.get("timed_out") or []:
        moved = db.scalar(
            select(MoveRow.ply).where(MoveRow.game_id == row.id, MoveRow.player == seat).limit(1)
        )
        if moved is None and 0 <= seat < len(pairing.players):
            db.execute(
                update(TournamentPlayer)
                .where(
                    TournamentPlayer.tournament_id == pairing.tournament_id,
                    TournamentPlayer.user_id == pairing.players[seat],
                )
                .values(paused=True),
                execution_options={"synchronize_session": False},
            )


def next_edition(t: Tournament) -> Tournament:
    """A recurring tournament's next edition, ``repeat_days`` after this one's start."""
    return Tournament(
        name=t.name,
        game=t.game,
        options=dict(t.options),
        form=t.form,
        rated=t.rated,
        clock=t.clock,
        created_by=t.created_by,
        status="upcoming",
        starts=t.starts + timedelta(days=t.repeat_days or 7),
        minutes=t.minutes,
        rounds=t.rounds if t.form == "swiss" else None,
        max_players=t.max_players,
        round=0,
        seed=secrets.randbits(62),
        repeat_days=t.repeat_days,
    )


class Director:
    """Runs the tournaments of one store; see the module text."""

    def __init__(self, store: Store, games: GameService) -> None:
        self.store = store
        self.games = games
        self._fresh: list[int] = []
        """Pairings this process just stored, their games to make at once (the store marked
        them as being made, so no other process makes them meanwhile)."""
        self.paired_at: dict[int, float] | None = None
        """When each tournament game was made (``time.monotonic``), if a dict is set here
        (the benchmark sets one; a server keeps none, as it would grow without end)."""

    async def run(self) -> None:
        while True:
            try:
                await anyio.to_thread.run_sync(self.tick)
            except Exception:  # noqa: BLE001 - a bad look must not stop the director
                log.exception("tournament director")
            await asyncio.sleep(limits.TICK_SECONDS)

    def tick(self) -> list[int]:
        """One look at every tournament; returns the games it made."""
        now = utcnow()
        with self.store.reading() as db:
            due = db.scalars(
                select(Tournament.id).where(
                    Tournament.status == "upcoming", Tournament.starts <= now
                )
            ).all()
        for pk in due:
            self._start(pk)
        with self.store.reading() as db:
            running = db.scalars(select(Tournament.id).where(Tournament.status == "running")).all()
        for pk in running:
            self._advance(pk)
        return self._make_games()

    # --- starting and ending --------------------------------------------------------------
    def _start(self, pk: int) -> None:
        with self.store.session() as db:
            t = db.get(Tournament, pk)
            if t is None or t.status != "upcoming":
                return
            players = self._active(db, pk)
            least = 3 if t.form == "round-robin" else 2
            size = int(t.options.get("players", 2))
            status = "running" if len(players) >= max(least, size) else "cancelled"
            claimed = db.execute(
                update(Tournament)
                .where(Tournament.id == pk, Tournament.status == "upcoming")
                .values(status=status),
                execution_options={"synchronize_session": False},
            )
            if claimed.rowcount != 1:
                db.rollback()
                return
            db.refresh(t)
            if t.repeat_days:
                db.add(next_edition(t))
            if status == "running":
                if t.form == "arena":
                    t.ends = utcnow() + timedelta(minutes=t.minutes or 30)
                if t.form == "round-robin":
                    t.rounds = len(self._schedule(t, players))
                said = Text("The tournament {name} has started.", {"name": t.name})
            else:
                t.finished = utcnow()
                said = Text(
                    "The tournament {name} was cancelled: too few players joined.",
                    {"name": t.name},
                )
            for p in players:
                notify(db, p, "tournament", said, f"/tournaments/{pk}")
            db.commit()

    def _finish(self, db, t: Tournament) -> None:
        claimed = db.execute(
            update(Tournament)
            .where(Tournament.id == t.id, Tournament.status == "running")
            .values(status="finished", finished=utcnow()),
            execution_options={"synchronize_session": False},
        )
        if claimed.rowcount != 1:
            db.rollback()
            return
        players, games = self._field(db, t.id)
        for line in table_lines(t, players, games):
            notify(
                db,
                line.player,
                "tournament",
                Text(
                    "The tournament {name} is over: you placed {rank}.",
                    {"name": t.name, "rank": line.rank},
                ),
                f"/tournaments/{t.id}",
            )
        db.commit()

    # --- pairing ----------------------------------------------------------------------------
    def _advance(self, pk: int) -> None:
        with self.store.session() as db:
            t = db.get(Tournament, pk)
            if t is None or t.status != "running":
                return
            if t.form == "arena":
                self._advance_arena(db, t)
                return
            players, games = self._field(db, pk)
            unfinished = [g for g in games if g.points is None]
            if unfinished:
                return
            if t.round >= (t.rounds or 0):
                self._finish(db, t)
                return
            r = t.round + 1
            active = self._active(db, pk)
            if t.form == "swiss":
                here = set(active)  # withdrawn and paused players have lines, not pairings
                ranked = [x.player for x in table_lines(t, active, games) if x.player in here]
                pairs, bye = pair_swiss(ranked, played_of(games), r)
                self._store_round(
                    db, t, [tuple(p) for p in pairs], [bye] if bye is not None else []
                )
                return
            schedule = self._schedule(t, self._entrants(db, pk))
            seats = [tuple(p for p in table if p in active) for table in schedule[r - 1]]
            least = smallest_table(int(t.options.get("players", 2)))
            self._store_round(db, t, [s for s in seats if len(s) >= least], [])

    def _advance_arena(self, db, t: Tournament) -> None:
        """Pair the free players, or end the arena once its time is up and its games are
        over. Most looks find nobody free: they read only who is busy, not every game."""
        busy = {
            p
            for players in db.scalars(
                select(TournamentGame.players).where(
                    TournamentGame.tournament_id == t.id, TournamentGame.points.is_(None)
                )
            )
            for p in players
        }
        if t.ends is not None and utcnow() >= t.ends:
            if not busy:
                self._finish(db, t)
            return
        free = [p for p in self._active(db, t.id) if p not in busy]
        if len(free) < 2:
            return
        players, games = self._field(db, t.id)
        played = played_of(games)
        points = arena_points(played)
        ranking = sorted(players, key=lambda p: (-(points[p].points if p in points else 0), p))
        self._store_round(db, t, [tuple(pair) for pair in pair_arena(free, ranking, played)], [])

    def _store_round(self, db, t: Tournament, seats: list[tuple], byes: list[int]) -> None:
        """Claim the next round and store its pairings, in one transaction."""
        if not seats and not byes:
            db.rollback()
            return
        claimed = db.execute(
            update(Tournament)
            .where(
                Tournament.id == t.id, Tournament.round == t.round, Tournament.status == "running"
            )
            .values(round=t.round + 1),
            execution_options={"synchronize_session": False},
        )
        if claimed.rowcount != 1:
            db.rollback()
            return
        r = t.round + 1
        now = utcnow()
        fresh = [
            TournamentGame(tournament_id=t.id, round=r, players=list(table), making=now)
            for table in seats
        ]
        db.add_all(fresh)
        for p in byes:
            db.add(
                TournamentGame(
                    tournament_id=t.id, round=r, players=[p], points=[BYE_POINTS], finished=now
                )
            )
        db.flush()
        self._fresh += [g.id for g in fresh]  # claimed for this process by ``making``
        db.commit()

    def _schedule(self, t: Tournament, entrants: list[int]) -> list:
        size = int(t.options.get("players", 2))
        return tables(entrants, size, smallest_table(size), t.seed)

    # --- making the games -------------------------------------------------------------------
    def _make_games(self) -> list[int]:
        made = []
        fresh, self._fresh = self._fresh, []
        for pk in fresh:
            game = self._try_make(pk, None, claimed=True)
            if game is not None:
                made.append(game)
        return made + self._make_stalled()

    def _try_make(self, pk: int, cutoff, *, claimed: bool = False, seating: bool = False):
        try:
            return self._make_game(pk, cutoff, seating, claimed)
        except ClubError as exc:
            log.warning("tournament pairing %s: no game made: %s", pk, exc.message)
            return None

    def _make_stalled(self) -> list[int]:
        """Games of pairings whose maker stopped (none since the cutoff), and games made but
        not yet joined by all their players."""
        cutoff = utcnow() - timedelta(seconds=limits.MAKE_GAME_AGAIN_SECONDS)
        with self.store.reading() as db:
            waiting = db.execute(
                select(TournamentGame.id, GameRow.status)
                .join(Tournament, Tournament.id == TournamentGame.tournament_id)
                .outerjoin(GameRow, GameRow.id == TournamentGame.game_id)
                .where(
                    Tournament.status == "running",
                    TournamentGame.points.is_(None),
                    (
                        TournamentGame.game_id.is_(None)
                        & (TournamentGame.making.is_(None) | (TournamentGame.making < cutoff))
                    )
                    | (GameRow.status == "open"),
                )
            ).all()
        made = []
        for pk, status in waiting:
            game = self._try_make(pk, cutoff, seating=status == "open")
            if game is not None:
                made.append(game)
        return made

    def _make_game(self, pk: int, cutoff, seating: bool, claimed: bool) -> int | None:
        with self.store.session() as db:
            if not seating and not claimed:
                claim = db.execute(
                    update(TournamentGame)
                    .where(
                        TournamentGame.id == pk,
                        TournamentGame.game_id.is_(None),
                        (TournamentGame.making.is_(None)) | (TournamentGame.making < cutoff),
                    )
                    .values(making=utcnow()),
                    execution_options={"synchronize_session": False},
                )
                if claim.rowcount != 1:
                    db.rollback()
                    return None
                db.commit()
            pairing = db.get(TournamentGame, pk)
            assert pairing is not None
            t = db.get(Tournament, pairing.tournament_id)
            assert t is not None
            users = {u.id: u for u in db.scalars(select(User).where(User.id.in_(pairing.players)))}
            db.expunge_all()
        people = [users[p] for p in pairing.players]
        game = pairing.game_id
        maker = None
        if game is None:
            options = dict(t.options)
            if "players" in options:
                options["players"] = len(people)
            game, maker = self._create(people, t, options)
            with self.store.session() as db:
                linked = db.execute(
                    update(TournamentGame)
                    .where(TournamentGame.id == pk, TournamentGame.game_id.is_(None))
                    .values(game_id=game),
                    execution_options={"synchronize_session": False},
                )
                db.commit()
            if linked.rowcount != 1:  # another process made it meanwhile: ours goes
                self.games.cancel(game, users[maker])
                return None
        for u in people:
            if u.id != maker:
                self.games.join(game, u)  # a player seated already changes nothing
        if self.paired_at is not None:
            self.paired_at[game] = time.monotonic()
        with self.store.session() as db:
            said = Text("Your next game in {name} is ready.", {"name": t.name})
            by_mail = (t.clock or {}).get("kind") == "correspondence"  # live: the page opens it
            for u in people:
                notify(db, u.id, "pairing", said, f"/games/{game}", mail=by_mail)
            db.commit()
        return game

    def _create(self, people: list[User], t: Tournament, options: dict) -> tuple[int, int]:
        """The pairing's game, made by one of its players (seated in the pairing's order):
        the first, unless a quota refuses them a new game (five of their own waiting in
        the lobby, say), then the next."""
        settings = GameSettings(rated=t.rated, clock=t.clock)
        refused: NewGameRefused | None = None
        for maker in people:
            seats = [
                SeatSpec("me") if u.id == maker.id else SeatSpec("user", user=u.name)
                for u in people
            ]
            try:
                return self.games.create(maker, t.game, options, seats, settings), maker.id
            except NewGameRefused as exc:
                refused = exc
        assert refused is not None
        raise refused

    # --- reading --------------------------------------------------------------------------
    @staticmethod
    def _active(db, pk: int) -> list[int]:
        """Who is paired: joined, not withdrawn, not paused; in the order they joined."""
        return list(
            db.scalars(
                select(TournamentPlayer.user_id)
                .where(
                    TournamentPlayer.tournament_id == pk,
                    TournamentPlayer.withdrawn.is_(False),
                    TournamentPlayer.paused.is_(False),
                )
                .order_by(TournamentPlayer.joined, TournamentPlayer.user_id)
            )
        )

    @staticmethod
    def _entrants(db, pk: int) -> list[int]:
        """Everyone who joined, in order: a round-robin's schedule is made of them."""
        return list(
            db.scalars(
                select(TournamentPlayer.user_id)
                .where(TournamentPlayer.tournament_id == pk)
                .order_by(TournamentPlayer.joined, TournamentPlayer.user_id)
            )
        )

    @staticmethod
    def _field(db, pk: int) -> tuple[list[int], list[TournamentGame]]:
        players = list(
            db.scalars(select(TournamentPlayer.user_id).where(TournamentPlayer.tournament_id == pk))
        )
        games = list(
            db.scalars(
                select(TournamentGame)
                .where(TournamentGame.tournament_id == pk)
                .order_by(TournamentGame.id)
            )
        )
        return players, games
