"""Ratings: one pool per game (and per player count where the game has several), updated
inside the transaction that ends a rated game.

Pools
    A two-player game is rated in a pool named after the game (``comune``, ``comino``,
    ``kuniumi``, and ``hexagone`` for two-player Hexagone) with Glicko-2 from the ``glicko2``
    library, each game its own rating period. Hexagone with 3 or 4 players is rated in
    ``hexagone-multi`` with the Weng-Lin Plackett-Luce model from ``openskill``; the same
    rule (``GAME-multi``) holds for any game of three or more players. Three- and four-player
    games share a pool because the model rates any number of players by their finishing
    order. A one-player game (solo Hexagone) is never rated.

One scale
    Both systems start a newcomer at 1500 with a deviation of 350. The OpenSkill model's
    defaults (mu 25, sigma 25/3, beta sigma/2, tau mu/300) are rescaled to that scale
    (sigma 350, beta 175, tau 3.5): the model is invariant under that change, and people can
    read both leaderboards the same way. The rating shown is the mean (Glicko-2's rating, or
    mu), with the deviation beside it.

Provisional
    A Glicko-2 rating is provisional while its deviation is above 110 (the threshold people
    know from chess servers; two newcomers reach it after about fourteen games against each
    other). OpenSkill's sigma falls far more slowly with several players at a table, so a
    multi-player rating is provisional for its first ten games instead. Provisional ratings
    are shown with a ``?`` and the word provisional, and come after established ones on a
    leaderboard.

Who is rated
    Only games created as rated whose every seat is a person, each a different person.
    Computer levels have no club rating of their own (the arena's ratings are measured
    between bots on another scale), so a game with a computer seat is refused as rated when
    it is created, and left unrated here should one exist. Casual games change nothing.

Results
    Two players: a win scores 1, a loss 0, a draw (no winner, or both) ½. Several players
    are ranked: by the result's stored ``ranking`` where it has one (a game ended on time
    stores one, timed-out players last), else the game's own ranking when it ended by its
    rules, else the winners first, the others by score (ties share a place), and players
    who resigned or ran out of time (the ``resigned`` and ``timed_out`` seat lists) last.

Two games ending at once for the same person: on PostgreSQL a newcomer's rating is created
by ``INSERT ... ON CONFLICT DO NOTHING`` and every rating is read ``FOR UPDATE``, so the
second game waits for the first and builds on its result. On SQLite one writer works at a
time and the second ending may be refused as a conflict, to be tried again.

Time away
    A Glicko-2 deviation grows while its player is away, as the system prescribes for a
    rating period without games: each whole day since the rating last changed adds the
    player's volatility to it (on Glicko-2's own scale, ``phi^2 + days * sigma^2``), up to
    the newcomer's 350. An established player (deviation 60) who stays away some two and a
    half months is provisional again, and their next games move their rating further. The
    stored deviation is as of the last game; :func:`deviation_now` is what is shown, ranked
    and rated from. A multi-player (OpenSkill) rating is provisional by its game count, and
    does not change with time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import glicko2
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import lazyload

from ludoteca.core.messages import Text
from ludoteca.web.infra.store import GameRow, Rating, RatingHistory, utcnow

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
"""A Glicko-2 rating whose deviation is above this is provisional."""
PROVISIONAL_GAMES = 10
"""A multi-player (OpenSkill) rating with fewer rated games than this is provisional."""
OPENSKILL_PARAMS = {
    "mu": START_RATING,
    "sigma": START_DEVIATION,
    "beta": START_DEVIATION / 2,
    "tau": START_DEVIATION / 100,
}
"""The model's defaults (mu 25, sigma 25/3, beta sigma/2, tau sigma/100), scaled to 1500/350."""

GLICKO2 = "glicko2"
OPENSKILL = "openskill"
MULTI_SUFFIX = "-multi"


@dataclass(frozen=True)
class Pool:
    name: str
    game: str
    title: Text
    """The pool's name for people ("Hexagone, 2 players"), translated where shown."""
    system: str


def pool_for(game_id: str, players: int) -> str | None:
    """The pool a game of ``players`` is rated in, or None if it cannot be rated."""
    if players < 2:
        return None
    return game_id if players == 2 else game_id + MULTI_SUFFIX


def known_pools() -> dict[str, Pool]:
    """Every pool of the games this server offers, in the lobby's order."""
    from ludoteca.web.round.catalog import available_games

    pools: dict[str, Pool] = {}
    for gid, cls in available_games().items():
        two = cls.min_players <= 2 <= cls.max_players
        multi = cls.max_players >= 3
        if two:
            title = (
                Text(cls.title)
                if not multi and cls.min_players == 2
                else Text("{game}, {players} players", {"game": cls.title, "players": 2})
            )
            pools[gid] = Pool(gid, gid, title, GLICKO2)
        if multi:
            low = max(3, cls.min_players)
            span = f"{low}" if low == cls.max_players else f"{low}–{cls.max_players}"
            name = gid + MULTI_SUFFIX
            title = Text("{game}, {players} players", {"game": cls.title, "players": span})
            pools[name] = Pool(name, gid, title, OPENSKILL)
    return pools


def system_of(pool: str) -> str:
    return OPENSKILL if pool.endswith(MULTI_SUFFIX) else GLICKO2


def is_provisional(pool: str, deviation: float, games: int) -> bool:
    if system_of(pool) == OPENSKILL:
        return games < PROVISIONAL_GAMES
    return deviation > PROVISIONAL_DEVIATION or games < 1


RATING_PERIOD = timedelta(days=1)
"""A Glicko-2 rating period in time: each whole one without games widens the deviation."""
GLICKO2_SCALE = 173.7178
"""Glicko-2's factor between the displayed scale and its own (``phi = RD / 173.7178``)."""


def deviation_now(
    pool: str,
    deviation: float,
    volatility: float | None,
    updated: datetime | None,
    now: datetime | None = None,
) -> float:
    """The deviation of a rating last changed at ``updated``, grown by the whole rating
    periods since (Glicko-2's step for a period without games, once per period)."""
    if system_of(pool) != GLICKO2 or updated is None:
        return deviation
    periods = ((now or utcnow()) - updated) // RATING_PERIOD
    if periods <= 0:
        return deviation
    phi = deviation / GLICKO2_SCALE
    sigma = volatility or START_VOLATILITY
    return min(GLICKO2_SCALE * math.sqrt(phi * phi + periods * sigma * sigma), START_DEVIATION)


def rating_deviation(rating: Rating, now: datetime | None = None) -> float:
    """:func:`deviation_now` of a stored rating."""
    return deviation_now(rating.pool, rating.deviation, rating.volatility, rating.updated, now)


def shown(pool: str, rating: float, deviation: float, games: int) -> str:
    """A rating as people read it: ``1523``, or ``1523?`` while provisional."""
    return f"{round(rating)}{'?' if is_provisional(pool, deviation, games) else ''}"


def openskill_model() -> PlackettLuce:
    return PlackettLuce(**OPENSKILL_PARAMS)


# --- reading a result ----------------------------------------------------------------------------
def _out(result: dict[str, Any]) -> set[int]:
    """Seats that resigned or ran out of time."""
    out: set[int] = set()
    for key in ("resigned", "timed_out"):
        value = result.get(key) or []
        if isinstance(value, list):
            out.update(p for p in value if isinstance(p, int))
    return out


def outcomes(result: dict[str, Any], players: int) -> list[str]:
    """``win``, ``draw`` or ``loss`` for each seat: a draw when nobody or everybody won."""
    winners = {p for p in result.get("winners") or [] if isinstance(p, int)}
    if not winners or winners >= set(range(players)):
        return ["draw"] * players
    return ["win" if p in winners else "loss" for p in range(players)]


def two_player_score(result: dict[str, Any]) -> float:
    """Seat 0's score against seat 1: 1 for a win, 0 for a loss, ½ for a draw."""
    return {"win": 1.0, "loss": 0.0, "draw": 0.5}[outcomes(result, 2)[0]]


def finishing_ranks(
    result: dict[str, Any], players: int, ranking: Sequence[Sequence[int]] | None = None
) -> list[int]:
    """Each seat's place (1 is best; tied seats share a place).

    The result's own ``ranking`` (groups of seats, best first, as a game ended on time
    stores it) comes first; then ``ranking``, the game's order when it ended by its rules;
    otherwise the winners come first, the others by score, and players who resigned or ran
    out of time last."""
    out = _out(result)
    for order in (result.get("ranking"), None if out else ranking):
        ranks = _ranks_of(order, players)
        if ranks is not None:
            return ranks
    winners = {p for p in result.get("winners") or [] if isinstance(p, int)} - out
    scores = result.get("scores")
    playing = [p for p in range(players) if p not in out]

    def score(p: int) -> float:
        if isinstance(scores, list) and p < len(scores) and isinstance(scores[p], int | float):
            return float(scores[p])
        return 0.0

    groups: list[list[int]] = []
    if winners:
        groups.append(sorted(winners))
    rest = sorted((p for p in playing if p not in winners), key=lambda p: -score(p))
    for p in rest:
        if groups and groups[-1][0] not in winners and score(groups[-1][0]) == score(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    if out:
        groups.append(sorted(out))
    ranks = [0] * players
    for place, group in enumerate(groups, start=1):
        for p in group:
            ranks[p] = place
    return ranks


def _ranks_of(order: object, players: int) -> list[int] | None:
    """Places from groups of seats, best first; None unless every seat is in one group."""
    if not isinstance(order, list | tuple):
        return None
    ranks = [0] * players
    for place, group in enumerate(order, start=1):
        if not isinstance(group, list | tuple):
            return None
        for p in group:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < players or ranks[p]:
                return None
            ranks[p] = place
    return ranks if all(ranks) else None


# --- the rating systems --------------------------------------------------------------------------
@dataclass
class Standing:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float | None = START_VOLATILITY


def glicko_pair(a: Standing, b: Standing, score_a: float) -> tuple[Standing, Standing]:
    """Both players after one game, each against the other's rating before it."""
    pa = glicko2.Player(a.rating, a.deviation, a.volatility or START_VOLATILITY)
    pb = glicko2.Player(b.rating, b.deviation, b.volatility or START_VOLATILITY)
    pa.update_player([b.rating], [b.deviation], [score_a])
    pb.update_player([a.rating], [a.deviation], [1.0 - score_a])
    return Standing(pa.rating, pa.rd, pa.vol), Standing(pb.rating, pb.rd, pb.vol)


def openskill_table(standings: Sequence[Standing], ranks: Sequence[int]) -> list[Standing]:
    """Every player after one game of several, ranked by finishing place."""
    model = openskill_model()
    teams = [[model.rating(mu=s.rating, sigma=s.deviation)] for s in standings]
    rated = model.rate(teams, ranks=list(ranks))
    return [Standing(team[0].mu, team[0].sigma, None) for team in rated]


# --- the finish hook -----------------------------------------------------------------------------
def rated_players(row: GameRow) -> list[int] | None:
    """The user ids at a game that counts for ratings, in seat order; None if it does not."""
    if not row.rated or not row.result or pool_for(row.game, len(row.seats)) is None:
        return None
    ids = [s.user_id for s in row.seats]
    if any(s.kind != "user" for s in row.seats) or None in ids:
        return None
    if len(set(ids)) != len(ids):
        return None
    return ids  # type: ignore[return-value]


def new_rating(user_id: int, pool: str) -> Rating:
    return Rating(
        user_id=user_id,
        pool=pool,
        rating=START_RATING,
        deviation=START_DEVIATION,
        volatility=START_VOLATILITY if system_of(pool) == GLICKO2 else None,
        games=0,
        wins=0,
        draws=0,
        losses=0,
        updated=utcnow(),
    )


def _insert_missing(db, fresh: list[Rating]) -> None:
    """Create the ratings of first-time players unless they exist, in one statement that
    waits for (rather than collides with) another game ending for the same newcomer."""
    dialect = db.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover - the club supports SQLite and PostgreSQL
        return
    columns = ("user_id", "pool", "rating", "deviation", "volatility", "games", "wins")
    columns += ("draws", "losses", "updated")
    values = [{c: getattr(r, c) for c in columns} for r in fresh]
    db.execute(insert(Rating).values(values).on_conflict_do_nothing())


def update_ratings(db, row: GameRow, state=None) -> None:
    """The finish hook: rate a finished rated game between people, in the ending transaction.

    Creates each player's rating in the pool on their first game, updates rating,
    deviation, volatility, games and wins/draws/losses, and appends the new rating to the
    history."""
    ids = rated_players(row)
    if ids is None:
        return
    result = row.result or {}
    players = len(ids)
    pool = pool_for(row.game, players)
    assert pool is not None
    fresh = [new_rating(uid, pool) for uid in sorted(ids)]
    _insert_missing(db, fresh)
    existing = {
        r.user_id: r
        for r in db.scalars(
            select(Rating)
            .options(lazyload(Rating.user))
            .where(Rating.pool == pool, Rating.user_id.in_(ids))
            .order_by(Rating.user_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    }
    rows: list[Rating] = []
    for uid in ids:
        rating = existing.get(uid)
        if rating is None:  # a database without INSERT ... ON CONFLICT
            rating = new_rating(uid, pool)
            db.add(rating)
        rows.append(rating)
    now = row.finished or utcnow()
    before = [Standing(r.rating, rating_deviation(r, now), r.volatility) for r in rows]
    if system_of(pool) == GLICKO2:
        after = list(glicko_pair(before[0], before[1], two_player_score(result)))
    else:
        ranking = None
        if state is not None and getattr(state, "is_over", False):
            ranking = getattr(state.result, "ranking", None)
        after = openskill_table(before, finishing_ranks(result, players, ranking))
    for rating, new, outcome in zip(rows, after, outcomes(result, players), strict=True):
        rating.rating = new.rating
        rating.deviation = new.deviation
        rating.volatility = new.volatility
        rating.games += 1
        rating.wins += outcome == "win"
        rating.draws += outcome == "draw"
        rating.losses += outcome == "loss"
        rating.updated = now
        db.add(
            RatingHistory(
                user_id=rating.user_id,
                pool=pool,
                game_id=row.id,
                rating=new.rating,
                deviation=new.deviation,
                created=now,
            )
        )


def read_seat_ratings(store, row: GameRow) -> list[dict[str, Any]]:
    """:func:`seat_ratings` in a read of its own: the game page and the views of a game
    that is not being played both show this line."""
    with store.reading() as db:
        return seat_ratings(db, row)


def seat_ratings(db, row: GameRow) -> list[dict[str, Any]]:
    """The people at a game with their rating in its pool, for the game page: ``rating`` is
    the shown text (``1523?`` while provisional), or None before their first rated game."""
    pool = pool_for(row.game, len(row.seats))
    people = [s for s in row.seats if s.user is not None]
    found: dict[int, Rating] = {}
    if pool is not None and people:
        found = {
            r.user_id: r
            for r in db.scalars(
                select(Rating).where(
                    Rating.pool == pool, Rating.user_id.in_([s.user_id for s in people])
                )
            )
        }
    out = []
    for s in people:
        r = found.get(s.user_id)  # type: ignore[arg-type]
        out.append(
            {
                "index": s.index,
                "name": s.user.name,  # type: ignore[union-attr]
                "rating": None
                if r is None
                else shown(pool, r.rating, rating_deviation(r), r.games),  # type: ignore[arg-type]
            }
        )
    return out
