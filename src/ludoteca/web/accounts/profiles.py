"""Leaderboards and player profiles: the top players of every rating pool, and for each
person their ratings, wins, draws and losses per game, a plot of their rating history and
their recent games linked to the replays.

Everything is read from the ``ratings`` and ``rating_history`` tables the finish hook in
:mod:`ludoteca.web.ratings.service` writes, and from the finished games themselves (for the counts
that include casual games). The plot is SVG written into the page (:mod:`ludoteca.web.plots`),
so it takes the page's fonts, language and theme and the browser needs no charting code.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup
from sqlalchemy import func, select

from ludoteca.web.accounts.history import HistoryFilter, outcome_of
from ludoteca.web.accounts.record import Group, newest_first, read
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.catalogs import language as language_named
from ludoteca.web.infra.store import GameRow, Rating, RatingHistory, Seat, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import Visitor, club, language, render
from ludoteca.web.lobby.summary import game_summary
from ludoteca.web.plots import line_chart
from ludoteca.web.presence.service import follows
from ludoteca.web.ratings.service import (
    START_RATING,
    Pool,
    is_provisional,
    known_pools,
    rating_deviation,
    shown,
)
from ludoteca.web.round import vacation
from ludoteca.web.round.catalog import available_games
from ludoteca.web.stats.service import user_stats

router = APIRouter()
BOARD_PREVIEW = 10
"""Players per pool on the page of every leaderboard."""
BOARD_SIZE = 100
"""Players on one pool's leaderboard."""
RECENT_GAMES = 20


def rating_entry(rating: Rating, now: datetime | None = None) -> dict[str, Any]:
    deviation = rating_deviation(rating, now)  # as of today, not of the last game
    provisional = is_provisional(rating.pool, deviation, rating.games)
    return {
        "name": rating.user.name if rating.user is not None else "",
        "pool": rating.pool,
        "rating": round(rating.rating),
        "shown": shown(rating.pool, rating.rating, deviation, rating.games),
        "deviation": round(deviation),
        "games": rating.games,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
        "provisional": provisional,
    }


def top_players(db, pool: str, limit: int) -> list[dict[str, Any]]:
    """Established players by rating, then provisional ones; ranks count established only.

    Whether a rating is provisional depends on the time since its last game (see
    :func:`~ludoteca.web.ratings.service.deviation_now`), so the pool is sorted here, not in SQL."""
    now = utcnow()
    rows = db.scalars(select(Rating).where(Rating.pool == pool)).all()
    entries = sorted(
        ((rating_entry(r, now), r) for r in rows),
        key=lambda pair: (pair[0]["provisional"], -pair[1].rating, pair[1].user_id),
    )
    board = [e for e, _ in entries[:limit]]
    rank = 0
    for e in board:
        if not e["provisional"]:
            rank += 1
        e["rank"] = rank if not e["provisional"] else None
    return board


def pool_or_404(name: str) -> Pool:
    pools = known_pools()
    if name not in pools:
        raise ClubError(
            "There is no leaderboard called {name!r} (there are: {value}).",
            404,
            name=name[:40],
            value=", ".join(pools) or "none",
        )
    return pools[name]


def board(store, pool: Pool, size: int) -> dict[str, Any]:
    """One leaderboard: its pool, its ``size`` best players and how many are rated."""
    with store.session() as db:
        return {
            "pool": pool,
            "players": top_players(db, pool.name, size),
            "count": db.scalar(select(func.count()).where(Rating.pool == pool.name)) or 0,
        }


def kept_board(request: Request, pool: Pool, size: int) -> dict[str, Any]:
    """:func:`board`, kept for a few seconds (``Club.boards``): a leaderboard sorts its whole
    pool and changes only as rated games end, however many people look at it. A game ending
    in this process makes it again at once (``GameService.listed``)."""
    c = club(request)
    return c.boards.get((pool.name, size, c.games.listed), lambda: board(c.store, pool, size))


@router.get("/leaderboard")
def leaderboards(request: Request):
    boards = [kept_board(request, pool, BOARD_PREVIEW) for pool in known_pools().values()]
    return render(request, "leaderboard.html", boards=boards, single=False)


@router.get("/leaderboard/{pool}")
def leaderboard(pool: str, request: Request):
    info = pool_or_404(pool)
    return render(
        request, "leaderboard.html", boards=[kept_board(request, info, BOARD_SIZE)], single=True
    )


# --- profiles ------------------------------------------------------------------------------------
def user_or_404(db, name: str) -> User:
    user = None
    if 0 < len(name) <= 64:
        user = db.scalar(select(User).where(User.name_key == name.strip().lower()))
    if user is None:
        raise ClubError("There is no player called {name!r}.", 404, name=name[:40])
    return user


def rating_changes(history: Sequence[Any]) -> dict[int, float]:
    """How much each rated game moved the player's rating, by game number."""
    last: dict[str, float] = defaultdict(lambda: START_RATING)
    out: dict[int, float] = {}
    for h in history:
        out[h.game_id] = h.rating - last[h.pool]
        last[h.pool] = h.rating
    return out


def game_counts(grouped: list[Group]) -> list[dict[str, Any]]:
    """Finished games per game, rated and casual, with wins, draws and losses, from the
    member's games as the database grouped them (:func:`.record.read`)."""
    titles = {gid: cls.title for gid, cls in available_games().items()}
    counts: dict[str, dict[str, Any]] = {}
    for group in grouped:
        entry = counts.setdefault(
            group.game,
            {"game": group.game, "title": titles.get(group.game, group.game), "played": 0},
        )
        entry["played"] += group.games
        if group.seats >= 2:
            outcome = group.outcome  # an aborted game: no win nor draw
            entry[outcome] = entry.get(outcome, 0) + group.games
    return sorted(counts.values(), key=lambda e: (-e["played"], e["title"]))


def page_number(asked: str | None) -> int:
    """The page of games asked for (``?page=3``), 1 for anything that is not a page number:
    a mistyped address shows the newest games rather than an error page."""
    text = (asked or "").strip()
    return int(text) if text.isdigit() and 0 < len(text) < 7 and int(text) > 0 else 1


def finished_games_of(user: User, viewer: User | None):
    """The condition for ``user``'s finished games that ``viewer`` may see: a private game
    is shown only to its own players, as its replay is."""
    mine = select(Seat.game_id).where(Seat.user_id == user.id)
    visible = GameRow.private.is_(False)
    if viewer is not None:
        visible = visible | GameRow.id.in_(select(Seat.game_id).where(Seat.user_id == viewer.id))
    return (GameRow.id.in_(mine), GameRow.status == "finished", visible)


def recent_games(
    db,
    user: User,
    viewer: User | None,
    changes: dict[int, float],
    page: int = 1,
    filters: HistoryFilter | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """One page of ``user``'s finished games, newest first (:data:`RECENT_GAMES` a page),
    and how many there are in all: every game is reachable, not only the newest. With
    ``filters``, only the games they select (:mod:`.history`)."""
    filters = filters or HistoryFilter()
    where = [*finished_games_of(user, viewer), *filters.conditions()]
    chosen = filters.result_ids(db, user.id, where)
    if chosen is None:
        total = db.scalar(select(func.count()).select_from(GameRow).where(*where)) or 0
        page_where = where
    else:
        total = len(chosen)
        start = (page - 1) * RECENT_GAMES
        page_where = [GameRow.id.in_(chosen[start : start + RECENT_GAMES])]
    query = select(GameRow).where(*page_where).order_by(*newest_first())
    if chosen is None:
        query = query.offset((page - 1) * RECENT_GAMES)
    rows = db.scalars(query.limit(RECENT_GAMES)).all()
    out = []
    for row in rows:
        summary = game_summary(row, viewer)
        index = next(s.index for s in row.seats if s.user_id == user.id)
        summary["outcome"] = outcome_of(row.result, len(row.seats), index)
        summary["rated"] = row.rated
        change = changes.get(row.id)
        summary["change"] = None if change is None else f"{change:+.0f}"
        summary["finished"] = row.finished
        out.append(summary)
    return out, total


@router.get("/users/{name}")
def profile(name: str, request: Request, viewer: Visitor, page: str | None = None):
    number = page_number(page)
    filters = HistoryFilter.parse(request.query_params)
    pools = known_pools()
    with club(request).store.session() as db:
        user = user_or_404(db, name)
        ratings = db.scalars(select(Rating).where(Rating.user_id == user.id)).all()
        history = db.execute(  # the columns the plot and the changes need, not whole rows
            select(
                RatingHistory.game_id,
                RatingHistory.pool,
                RatingHistory.rating,
                RatingHistory.deviation,
            )
            .where(RatingHistory.user_id == user.id)
            .order_by(RatingHistory.created, RatingHistory.id)
        ).all()
        record = read(db, user.id)
        counts = game_counts(record.groups)
        changes = rating_changes(list(history))
        recent, total = recent_games(db, user, viewer, changes, number, filters)
        pages = max(1, -(-total // RECENT_GAMES))
        if number > pages:  # past the last page (games made private, a stale link): the last
            number = pages
            recent, total = recent_games(db, user, viewer, changes, number, filters)
        mystats = user_stats(db, user, record)
        away = vacation.summary(db, user.id)
        following = viewer is not None and follows(db, viewer.id, user.id)
    order = list(pools)
    entries = sorted(
        (rating_entry(r) for r in ratings),
        key=lambda e: order.index(e["pool"]) if e["pool"] in order else len(order),
    )
    words = language(request)
    for e in entries:
        e["title"] = words.text(pools[e["pool"]].title) if e["pool"] in pools else e["pool"]
    rated = titled(rating_series(list(history)), words)
    return render(
        request,
        "profile.html",
        person=user,
        ratings=entries,
        counts=counts,
        recent=recent,
        games_total=total,
        games_page=number,
        games_pages=pages,
        has_history=bool(history),
        rating_plot=rating_plot(user.name, rated, words),
        rated=rated,
        played=sum(c["played"] for c in counts),
        mystats=mystats,
        vacation=away,
        filters=filters,
        titles={gid: cls.title for gid, cls in available_games().items()},
        following=following,
        tournaments=club(request).tournaments.of_member(user.id)
        if club(request).tournaments is not None
        else [],
    )


def rating_series(history: Sequence[Any]) -> dict[str, list[tuple[float, float]]]:
    """Each pool's (rating, deviation) after every rated game, by the pool's name."""
    series: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for h in history:
        series[h.pool].append((h.rating, h.deviation))
    return dict(series)


def rating_plot(
    who: str,
    series: dict[str, list[tuple[float, float]]],
    words: Language | None = None,
    standalone: bool = False,
) -> Markup | None:
    """An SVG of each pool's rating after every rated game, with a band of ± one deviation
    (``series`` by the pool's title); ``None`` without rated games. The x axis counts games:
    whole-number ticks only, a single game one point at 1."""
    words = words or language_named("en")
    _ = words.gettext
    return line_chart(
        _("{name}: rating history").format(name=who),
        list(series.items()),
        x_label=_("rated games played"),
        y_label=_("rating"),
        description=_("{name}'s rating after each rated game").format(name=who),
        number=words.number,
        standalone=standalone,
    )


def titled(series: dict[str, list[tuple[float, float]]], words: Language):
    """``series`` keyed by each pool's title in ``words``'s language."""
    pools = known_pools()
    return {
        (words.text(pools[name].title) if name in pools else name): points
        for name, points in series.items()
    }


@router.get("/users/{name}/ratings.svg")
def rating_plot_svg(name: str, request: Request):
    """The profile's plot on its own (SVG, in the reader's language and theme)."""
    with club(request).store.session() as db:
        user = user_or_404(db, name)
        history = db.scalars(
            select(RatingHistory)
            .where(RatingHistory.user_id == user.id)
            .order_by(RatingHistory.created, RatingHistory.id)
        ).all()
    words = language(request)
    svg = rating_plot(user.name, titled(rating_series(list(history)), words), words, True)
    if svg is None:
        return Response(status_code=204, headers={"Cache-Control": "no-cache"})
    return Response(str(svg), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@router.get("/users/{name}/ratings.png")
def rating_plot_png(name: str, request: Request):
    """The plot was a PNG picture once: its old address leads to the SVG."""
    with club(request).store.session() as db:
        user = user_or_404(db, name)
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"/users/{quote(user.name)}/ratings.svg{query}", status_code=301)
