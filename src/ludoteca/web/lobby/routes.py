"""The lobby: the public lists of games, a member's own, and the cards of the games.

Every state-changing form is a POST carrying the CSRF token; every page is rendered on the
server, so the browser needs no build step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from markupsafe import Markup
from sqlalchemy import select

from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.templates import page_context
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.kernel.requests import (
    TEMPLATES,
    Visitor,
    club,
    language,
    render,
)
from ludoteca.web.lobby.members import ListedGame, member_games
from ludoteca.web.lobby.new_game import FIRST_LEVEL
from ludoteca.web.lobby.pairing.controls import grid
from ludoteca.web.lobby.summary import game_summary
from ludoteca.web.presence.service import counts
from ludoteca.web.round import offers
from ludoteca.web.round.access import joinable, seated
from ludoteca.web.round.catalog import LEVEL_ABOUT, bot_levels, catalogue

router = APIRouter()


@cache
def catalogue_html(lang: Language) -> Markup:
    """The lobby's cards of the installed games in ``lang``: the same for every reader of the
    language until the server restarts, so drawn once per language (a tenth of a millisecond
    of every lobby)."""
    template = TEMPLATES.get_template("_catalogue.html")
    return Markup(template.render({**page_context(lang), "games": catalogue()}))


@dataclass(frozen=True, slots=True)
class Listed:
    """A game of the lobby's public lists, with what the lobby shows of it."""

    row: GameRow | ListedGame
    summary: dict[str, Any]

    def seated(self, user: User) -> bool:
        return seated(self.row.seats, user)

    def joinable_by(self, user: User) -> bool:
        return joinable(self.row.seats, user)


LAST_FINISHED = (
    select(GameRow)
    .where(GameRow.status == "finished", GameRow.private.is_(False))
    .order_by(GameRow.finished.desc())
    .limit(10)
)
"""The last finished public games, read in order through ``ix_games_status_finished``
(migration 0016): through the index on the status alone, a club with a million finished
games sorted them all for every lobby (470 ms)."""


def public_lists(store) -> tuple[list[Listed], list[Listed], list[Listed]]:
    """What the lobby shows every visitor: open public games, the last finished ones and the
    games in progress, each with its seats (kept a second: see ``Club.lists``).

    Their summaries are made here too, once for every reader: nothing in them depends on who
    reads (whose turn it is matters only in the reader's own games, never in these lists,
    which leave those out or hold only open and finished games)."""
    with store.session() as db:
        waiting = db.scalars(
            select(GameRow)
            .where(GameRow.status == "open", GameRow.private.is_(False))
            .order_by(GameRow.id.desc())
            .limit(OPEN_READ)
        ).all()
        open_rows = fairly(waiting, OPEN_SHOWN)
        recent = db.scalars(LAST_FINISHED).all()
        watchable = db.scalars(
            select(GameRow)
            .where(GameRow.status == "active", GameRow.private.is_(False))
            .order_by(GameRow.id.desc())
            .limit(30)
        ).all()
    return _listed(open_rows), _listed(recent), _listed(watchable)


OPEN_SHOWN = 50
"""Open games the lobby lists."""
OPEN_READ = 1000
"""Open games read to choose them from: more than the club has waiting in normal times."""


def fairly(rows: list[GameRow], count: int) -> list[GameRow]:
    """``count`` of the open games ``rows`` (newest first), chosen round robin between their
    creators: everyone's first, then everyone's second, and so on, each round in the order
    the creators' oldest waiting games were made; newest first again in the result.

    The newest fifty alone let a flood push others' games out of view: ten accounts made
    from one address within its hourly limit opened fifty games in 7 s. Now a game waiting
    before a flood stays listed unless fifty other people's games have waited longer; the
    flood's accounts share the rounds with everyone else, whatever their number."""
    by_owner: dict[int | None, list[GameRow]] = {}
    for row in reversed(rows):  # oldest first
        by_owner.setdefault(row.created_by, []).append(row)
    lines = list(by_owner.values())  # in the order of each creator's oldest waiting game
    chosen: list[GameRow] = []
    depth = 0
    while len(chosen) < count and any(len(line) > depth for line in lines):
        for line in lines:
            if depth < len(line) and len(chosen) < count:
                chosen.append(line[depth])
        depth += 1
    return sorted(chosen, key=lambda row: row.id, reverse=True)


def _listed(rows) -> list[Listed]:
    return [Listed(row, game_summary(row, None)) for row in rows]


@router.get("/")
def lobby(request: Request, user: Visitor):
    c = club(request)
    open_games, recent, watchable = c.lists.get(
        ("lobby", c.games.listed), lambda: public_lists(c.store)
    )
    shown_open = [g.summary for g in open_games]
    in_progress = [g.summary for g in watchable]
    playing: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    incoming: list[dict[str, Any]] = []
    outgoing: list[dict[str, Any]] = []
    if user is not None:
        mine = member_games(c.store, user.id)
        if mine.invited:  # private games waiting for this member (the public list has the others)
            merged = {g.row.id: g for g in open_games}
            merged.update((g.id, Listed(g, game_summary(g, user))) for g in mine.invited)
            open_games = [merged[pk] for pk in sorted(merged, reverse=True)[:50]]
        shown_open = [g.summary for g in open_games if g.joinable_by(user)]
        in_progress = [g.summary for g in watchable if not g.seated(user)]
        playing = [game_summary(g, user) for g in mine.playing]
        answer = offers.awaiting(c.store, user.id, [g.id for g in mine.playing])
        for g in playing:  # a turn, or an offer to answer: the game waits for them
            g["offer_to_answer"] = g["id"] in answer
            g["waits"] = bool(g.get("my_turn")) or g["offer_to_answer"]
        finished = [game_summary(g, user) for g in mine.finished]
        if c.challenges is not None:
            incoming, outgoing = c.challenges.waiting(user)
    return render(
        request,
        "lobby.html",
        catalogue_html=catalogue_html(language(request)),
        open_games=shown_open,
        my_games=playing,
        my_finished=finished,
        recent=[g.summary for g in recent],
        in_progress=in_progress,
        welcome=request.query_params.get("welcome"),
        incoming=incoming,
        outgoing=outgoing,
        pairing_grid=grid(),
        counts=c.lists.get(("counts",), lambda: counts(c.store)),
        levels=bot_levels(),
        level_about=LEVEL_ABOUT,
        default_level=FIRST_LEVEL,
    )
