"""The numbers of ``/stats``: from the tallies (:mod:`ludoteca.web.stats.tallies`), a count of
active players, and each person's own record for their profile.

The page's numbers are computed once per :data:`CACHE_SECONDS` per process and kept, with
the plots drawn from them, so a busy page costs one dictionary lookup. The tallies make
even the first computation cheap: a few hundred rows however many games were played.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from markupsafe import Markup
from sqlalchemy import distinct, func, select, union

from ludoteca.bots.arena import wilson
from ludoteca.web.accounts.record import Record, read
from ludoteca.web.i18n.catalogs import Language, language
from ludoteca.web.infra.store import GameRow, Seat, Store, User, utcnow
from ludoteca.web.plots import bar_chart, interval_chart
from ludoteca.web.round.catalog import available_games
from ludoteca.web.stats.models import GameTally
from ludoteca.web.stats.tallies import COUNTS

log = logging.getLogger("ludoteca.web")
CACHE_SECONDS = 60.0
RETRY_SECONDS = 10.0
"""After a refresh fails, how long the page serves the numbers it has before trying again."""
MONTHS_SHOWN = 24
ACTIVE_DAYS = 30


def _title(game_id: str) -> str:
    cls = available_games().get(game_id)
    return cls.title if cls is not None else game_id


@dataclass
class Snapshot:
    made: float
    """``time.monotonic()`` when the numbers were computed (for the cache's age)."""
    numbers: dict[str, Any]
    computed: datetime = field(default_factory=utcnow)
    """When the numbers were computed, shown on the page: numbers never look fresher than
    they are."""
    plots: dict[str, Markup | None] = field(default_factory=dict)
    """The plots by name and language (``first:de``), drawn when first asked for."""

    def plot(self, name: str, words: Language, standalone: bool = False) -> Markup | None:
        """The plot ``name`` (``months`` or ``first``) as SVG with its words in ``words``'s
        language; ``None`` when it has nothing to show. A name that is no plot is a
        ``KeyError``."""
        draw = PLOTS[name]
        key = f"{name}:{words.code}:{standalone}"
        if key not in self.plots:
            self.plots[key] = draw(self.numbers, words, standalone)
        return self.plots[key]


class Stats:
    def __init__(
        self,
        store: Store,
        cache_seconds: float = CACHE_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.store = store
        self.cache_seconds = cache_seconds
        self.retry_seconds = retry_seconds
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()
        self._failed: float | None = None
        self.failed_at: datetime | None = None
        """When the latest refresh failed (``None`` once one succeeds): the page says its
        numbers are older than they should be."""
        self.failures = 0
        """Computations of the figures that failed (the page keeps the previous ones)."""

    def snapshot(self) -> Snapshot:
        """The numbers. Only the first request of a process waits for them; once they are
        older than ``cache_seconds`` the next request starts a fresh computation in the
        background and is answered with the previous one. A refresh that fails is logged and
        tried again ``retry_seconds`` later, and the page says how old its numbers are."""
        snap = self._snapshot
        if snap is None:
            with self._lock:  # one computation at a time; the others take its result
                if self._snapshot is None:
                    self._snapshot = self._make()
                return self._snapshot
        now = time.monotonic()
        due = now - snap.made >= self.cache_seconds
        waiting = self._failed is not None and now - self._failed < self.retry_seconds
        if due and not waiting and self._lock.acquire(False):
            threading.Thread(target=self._refresh, name="stats-refresh", daemon=True).start()
        return snap

    def made(self) -> float | None:
        """When (``time.monotonic()``) the figures shown now were made; None before any."""
        snap = self._snapshot
        return None if snap is None else snap.made

    def _refresh(self) -> None:
        try:
            self._snapshot = self._make()
            self._failed = self.failed_at = None
        except Exception:
            log.exception(
                "The stats could not be refreshed; the page keeps numbers from %s and tries "
                "again in %.0f s",
                self._snapshot.computed.isoformat() if self._snapshot else "never",
                self.retry_seconds,
            )
            self._failed, self.failed_at = time.monotonic(), utcnow()
            self.failures += 1
        finally:
            self._lock.release()

    def _make(self) -> Snapshot:
        numbers = self.compute()
        snap = Snapshot(time.monotonic(), numbers)
        numbers["computed"] = snap.computed.isoformat()
        snap.plot("months", language("en"))  # drawn off the request path, as the numbers
        snap.plot("first", language("en"))
        return snap

    def compute(self) -> dict[str, Any]:
        with self.store.reading() as db:
            rows = db.scalars(select(GameTally)).all()
            since = utcnow() - timedelta(days=ACTIVE_DAYS)
            # Two indexed lookups (recently finished, being played), not one OR that would
            # scan every game.
            recent = union(
                select(GameRow.id).where(GameRow.finished >= since),
                select(GameRow.id).where(GameRow.status == "active"),
            )
            active = db.scalar(
                select(func.count(distinct(Seat.user_id))).where(
                    Seat.user_id.is_not(None), Seat.game_id.in_(recent)
                )
            )
            users = db.scalar(select(func.count()).select_from(User))
            playing = db.scalar(
                select(func.count()).select_from(GameRow).where(GameRow.status == "active")
            )
        per_pool: dict[tuple[str, int], dict[str, float]] = defaultdict(Counter)  # type: ignore[arg-type]
        per_month: dict[str, dict[str, int]] = defaultdict(Counter)  # type: ignore[arg-type]
        for t in rows:
            into = per_pool[(t.game, t.players)]
            for name in COUNTS:
                into[name] += getattr(t, name)
            per_month[t.month][t.game] += t.games
        games = []
        for (game, players), c in sorted(per_pool.items()):
            n = int(c["games"])
            low, high = wilson(c["first_wins"], n) if n else (0.0, 0.0)
            scored = int(c["scored"])
            mean = c["spread"] / scored if scored else None
            sd = (
                math.sqrt(max(0.0, c["spread_sq"] / scored - mean * mean))
                if scored and mean is not None
                else None
            )
            games.append(
                {
                    "game": game,
                    "title": _title(game),
                    "players": players,
                    "games": n,
                    "first_rate": c["first_wins"] / n if n else None,
                    "first_low": low,
                    "first_high": high,
                    "draw_rate": c["draws"] / n if n else None,
                    "length": c["plies"] / c["decided"] if c["decided"] else None,
                    "spread": mean,
                    "spread_sd": sd,
                    "scored": scored,
                }
            )
        months = [
            {"month": m, "by_game": dict(per_month[m]), "total": sum(per_month[m].values())}
            for m in sorted(per_month)
        ]
        return {
            "games": games,
            "months": months,
            "finished": sum(g["games"] for g in games),
            "active_players": active or 0,
            "active_days": ACTIVE_DAYS,
            "users": users or 0,
            "playing": playing or 0,
        }


def months_table(months: list[dict[str, Any]]) -> dict[str, Any]:
    """The last :data:`MONTHS_SHOWN` months: their names, the games played in them (by
    title) and each game's count per month — the plot's numbers, and the table beside it."""
    recent = months[-MONTHS_SHOWN:]
    games = sorted({g for m in recent for g in m["by_game"]})
    return {
        "months": [m["month"] for m in recent],
        "series": [
            {"game": g, "title": _title(g), "counts": [m["by_game"].get(g, 0) for m in recent]}
            for g in games
        ],
        "totals": [m["total"] for m in recent],
    }


def pool_label(words: Language, title: str, players: int) -> str:
    """A game and its number of players, as the stats name a pool."""
    return words.ngettext("{game}, {players} player", "{game}, {players} players", players).format(
        game=title, players=words.number(players)
    )


def months_plot(
    months: list[dict[str, Any]], words: Language | None = None, standalone: bool = False
) -> Markup | None:
    """Finished games per month, stacked by game; ``None`` before the first game ends."""
    words = words or language("en")
    _ = words.gettext
    table = months_table(months)
    return bar_chart(
        _("Games per month"),
        table["months"],
        [(s["title"], s["counts"]) for s in table["series"]],
        y_label=_("finished games"),
        description=_("Finished games per month, by game"),
        number=words.number,
        standalone=standalone,
    )


def first_player_plot(
    games: list[dict[str, Any]], words: Language | None = None, standalone: bool = False
) -> Markup | None:
    """Each game's first-player win rate with its 95% interval, against an even share;
    ``None`` before the first game ends."""
    words = words or language("en")
    _ = words.gettext
    rows = [
        (
            pool_label(words, g["title"], g["players"]),
            g["first_rate"],
            g["first_low"],
            g["first_high"],
            1 / g["players"] if g["players"] else 0.0,
        )
        for g in games
        if g["games"]
    ]
    return interval_chart(
        _("Does moving first win? (intervals of 95%)"),
        rows,
        x_label=_("first player's win rate (grey: an even share)"),
        description=_("Each game's first-player win rate with its interval of 95%"),
        percent=lambda v: words.percent(v, 0),
        standalone=standalone,
    )


# --- one person's record ---------------------------------------------------------------
def user_stats(db, user: User, kept: Record | None = None) -> dict[str, Any]:
    """A profile's statistics: favourite game, results by seat, and win streaks (current and
    longest), over all the person's finished games. The database counts them
    (:mod:`ludoteca.web.accounts.record`): the rows read do not grow with the games played.
    ``kept`` is :func:`~ludoteca.web.accounts.record.read`, when the caller has it."""
    kept = read(db, user.id) if kept is None else kept
    per_game: Counter[str] = Counter()
    by_seat: dict[int, Counter] = defaultdict(Counter)
    for group in kept.groups:
        per_game[group.game] += group.games
        outcome = group.seat_outcome
        if outcome is not None:  # aborted by the players: no result
            by_seat[group.index][outcome] += group.games
    favourite = per_game.most_common(1)
    return {
        "played": sum(per_game.values()),
        "favourite": _title(favourite[0][0]) if favourite else None,
        "favourite_games": favourite[0][1] if favourite else 0,
        "by_seat": [
            {"seat": i + 1, **{k: by_seat[i][k] for k in ("win", "draw", "loss")}}
            for i in sorted(by_seat)
        ],
        "streak": kept.streak,
        "longest_streak": kept.longest,
    }


PLOTS: dict[str, Callable[[dict[str, Any], Language, bool], Markup | None]] = {
    "months": lambda numbers, words, alone: months_plot(numbers["months"], words, alone),
    "first": lambda numbers, words, alone: first_player_plot(numbers["games"], words, alone),
}
