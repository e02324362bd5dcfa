"""The numbers of ``/stats``: from the tallies (:mod:`ludoteca.web.stats.tallies`), a count of
active players, and each person's own record for their profile.

The page's numbers are computed once per :data:`CACHE_SECONDS` per process and kept, with
the plots drawn from them, so a busy page costs one dictionary lookup. The tallies make
even the first computation cheap: a few hundred rows however many games were played.
"""

from __future__ import annotations

import io
import logging
import math
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import distinct, func, select, union

from ludoteca.bots.arena import wilson
from ludoteca.web.i18n.catalogs import Language, language
from ludoteca.web.i18n.plots import plot_fonts
from ludoteca.web.infra.store import GameRow, Seat, Store, User, utcnow
from ludoteca.web.round.catalog import available_games
from ludoteca.web.stats.models import GameTally
from ludoteca.web.stats.tallies import COUNTS

log = logging.getLogger("ludoteca.web")
CACHE_SECONDS = 60.0
ACTIVE_DAYS = 30


def _title(game_id: str) -> str:
    cls = available_games().get(game_id)
    return cls.title if cls is not None else game_id


@dataclass
class Snapshot:
    made: float
    numbers: dict[str, Any]
    plots: dict[str, bytes] = field(default_factory=dict)
    """The plots by name and language (``first:de``), drawn when first asked for."""

    def plot(self, name: str, words: Language) -> bytes | None:
        """The plot ``name`` (``months`` or ``first``) with its words in ``words``'s
        language, or ``None`` for a name that is no plot."""
        draw = PLOTS.get(name)
        if draw is None:
            return None
        key = f"{name}:{words.code}"
        png = self.plots.get(key)
        if png is None:
            png = self.plots[key] = draw(self.numbers, words)
        return png


class Stats:
    def __init__(self, store: Store, cache_seconds: float = CACHE_SECONDS) -> None:
        self.store = store
        self.cache_seconds = cache_seconds
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()
        self.failures = 0
        """Computations of the figures that failed (the page keeps the previous ones)."""

    def snapshot(self) -> Snapshot:
        """The numbers and plots. Only the first request of a process waits for them; once
        they are older than ``cache_seconds`` the next request starts a fresh computation
        in the background and is answered with the previous one."""
        snap = self._snapshot
        if snap is None:
            with self._lock:  # one computation at a time; the others take its result
                if self._snapshot is None:
                    self._snapshot = self._make()
                return self._snapshot
        if time.monotonic() - snap.made >= self.cache_seconds and self._lock.acquire(False):
            threading.Thread(target=self._refresh, name="stats-refresh", daemon=True).start()
        return snap

    def made(self) -> float | None:
        """When (``time.monotonic()``) the figures shown now were made; None before any."""
        snap = self._snapshot
        return None if snap is None else snap.made

    def _refresh(self) -> None:
        try:
            self._snapshot = self._make()
        except Exception:
            self.failures += 1
            log.exception("refreshing the stats failed; showing the previous figures")
        finally:
            self._lock.release()

    def _make(self) -> Snapshot:
        numbers = self.compute()
        snap = Snapshot(time.monotonic(), numbers)
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


def _png(fig) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def _figure(height: float = 3.0):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    plot_fonts()
    fig = Figure(figsize=(7, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def months_plot(months: list[dict[str, Any]], words: Language | None = None) -> bytes:
    """Finished games per month, stacked by game."""
    _ = (words or language("en")).gettext
    from matplotlib.ticker import MaxNLocator

    fig, ax = _figure()
    recent = months[-24:]
    labels = [m["month"] for m in recent]
    games = sorted({g for m in recent for g in m["by_game"]})
    bottom = [0] * len(recent)
    for game in games:
        values = [m["by_game"].get(game, 0) for m in recent]
        ax.bar(labels, values, bottom=bottom, label=_title(game))
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    if not recent:
        ax.text(
            0.5, 0.5, _("No finished games yet"), ha="center", va="center", transform=ax.transAxes
        )
    else:
        ax.legend(loc="upper left", fontsize="small")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(_("finished games"))
    ax.set_title(_("Games per month"), fontsize="medium")
    ax.tick_params(axis="x", labelrotation=45, labelsize="small")
    fig.tight_layout()
    return _png(fig)


def first_player_plot(games: list[dict[str, Any]], words: Language | None = None) -> bytes:
    """Each game's first-player win rate with its 95% interval, against an even share."""
    _ = (words or language("en")).gettext
    fig, ax = _figure()
    shown = [g for g in games if g["games"]]
    labels = [f"{g['title']} ({g['players']}p)" for g in shown]
    rates = [g["first_rate"] for g in shown]
    errors = [
        [r - g["first_low"] for r, g in zip(rates, shown, strict=True)],
        [g["first_high"] - r for r, g in zip(rates, shown, strict=True)],
    ]
    if shown:
        ax.errorbar(rates, labels, xerr=errors, fmt="o", capsize=4)
        for i, g in enumerate(shown):
            ax.plot([1 / g["players"]] * 2, [i - 0.3, i + 0.3], color="grey", linewidth=1)
    else:
        ax.text(
            0.5, 0.5, _("No finished games yet"), ha="center", va="center", transform=ax.transAxes
        )
    ax.set_xlim(0, 1)
    ax.set_xlabel(_("first player's win rate (grey: an even share)"))
    ax.set_title(_("Does moving first win? (intervals of 95%)"), fontsize="medium")
    ax.grid(alpha=0.3, axis="x")
    fig.tight_layout()
    return _png(fig)


# --- one person's record ---------------------------------------------------------------
def user_stats(db, user: User, limit: int = 5000) -> dict[str, Any]:
    """A profile's statistics: favourite game, results by seat, and win streaks (current and
    longest), from the person's last ``limit`` finished games."""
    rows = db.execute(
        select(GameRow.game, Seat.index, GameRow.result, GameRow.finished)
        .join(Seat, Seat.game_id == GameRow.id)
        .where(Seat.user_id == user.id, GameRow.status == "finished")
        .order_by(GameRow.finished.desc(), GameRow.id.desc())
        .limit(limit)
    ).all()
    favourite = Counter(game for game, _, _, _ in rows).most_common(1)
    by_seat: dict[int, Counter] = defaultdict(Counter)
    outcomes = []
    for _game, index, result, _finished in rows:
        result = result or {}
        if result.get("draw"):
            outcome = "draw"
        elif index in (result.get("winners") or []):
            outcome = "win"
        else:
            outcome = "loss"
        by_seat[index][outcome] += 1
        outcomes.append(outcome)
    current = 0
    for outcome in outcomes:  # newest first
        if outcome != "win":
            break
        current += 1
    longest = run = 0
    for outcome in reversed(outcomes):
        run = run + 1 if outcome == "win" else 0
        longest = max(longest, run)
    return {
        "played": len(rows),
        "favourite": _title(favourite[0][0]) if favourite else None,
        "favourite_games": favourite[0][1] if favourite else 0,
        "by_seat": [
            {"seat": i + 1, **{k: by_seat[i][k] for k in ("win", "draw", "loss")}}
            for i in sorted(by_seat)
        ],
        "streak": current,
        "longest_streak": longest,
    }


PLOTS = {
    "months": lambda numbers, words: months_plot(numbers["months"], words),
    "first": lambda numbers, words: first_player_plot(numbers["games"], words),
}
