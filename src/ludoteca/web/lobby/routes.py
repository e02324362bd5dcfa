"""Server-rendered pages: accounts, the lobby, creating and joining games, the game page,
replays with record download, and the rules pages.

Every state-changing form is a POST carrying the CSRF token; every page is rendered on the
server, so the browser needs no build step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlencode

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup
from sqlalchemy import select

from ludoteca.core.errors import GameError
from ludoteca.core.messages import N_, Text
from ludoteca.web.accounts.devices import DEVICE_COOKIE, DEVICE_DAYS
from ludoteca.web.accounts.service import SESSION_COOKIE, AccountError
from ludoteca.web.chat.service import history as chat_history
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.templates import page_context
from ludoteca.web.infra.inputs import check_text
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.infra.throttle import TooManyAttempts, request_address
from ludoteca.web.lobby.members import ListedGame, member_games
from ludoteca.web.lobby.summary import game_summary
from ludoteca.web.ratings.service import read_seat_ratings
from ludoteca.web.requests import (
    TEMPLATES,
    check_csrf,
    club,
    current_user,
    language,
    render,
    require_user,
)
from ludoteca.web.round.access import check_may_watch, joinable, may_cancel, may_join, seated
from ludoteca.web.round.assets import page_module
from ludoteca.web.round.catalog import available_games, bot_levels
from ludoteca.web.round.errors import ClubError, NewGameRefused
from ludoteca.web.round.log import game_log, log_names, steps_of, told
from ludoteca.web.round.service import GameSettings, PlayedMove, SeatSpec
from ludoteca.web.round.view import board_svg, last_cells, localized, page_view, script_json
from ludoteca.web.rules.pages import diagrams, rules_context

router = APIRouter()
MAX_FIELD = 256


async def form_data(request: Request) -> dict[str, str]:
    form = await request.form()
    data: dict[str, str] = {}
    for key, value in form.multi_items():
        if isinstance(value, str) and len(key) <= 64:
            check_text(key + value)  # the database could not store a NUL
            data[key] = value[: MAX_FIELD * 4]
    return data


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def catalogue() -> list[dict[str, Any]]:
    out = []
    for gid, cls in available_games().items():
        out.append(
            {
                "id": gid,
                "title": cls.title,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "has_chance": cls.has_chance,
                "tagline": cls.tagline,
            }
        )
    return out


@cache
def catalogue_html(lang: Language) -> Markup:
    """The lobby's cards of the installed games in ``lang``: the same for every reader of the
    language until the server restarts, so drawn once per language (a tenth of a millisecond
    of every lobby)."""
    template = TEMPLATES.get_template("_catalogue.html")
    return Markup(template.render({**page_context(lang), "games": catalogue()}))


# --- accounts ------------------------------------------------------------------------------------
@router.get("/register")
def register_page(request: Request):
    return render(request, "register.html", error=None, name="", next=_next(request))


@router.post("/register")
async def register(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    name, password = data.get("name", ""), data.get("password", "")
    nxt = safe_next(data.get("next", "/"))
    accounts = club(request).accounts
    try:
        if password != data.get("password2", password):
            raise AccountError("The two passwords differ.", "password2")
        address = request_address(request)
        # The language of the pages they registered on is theirs from now on: their
        # e-mails are in it before they ever touch the language menu.
        speaks = language(request).code
        user = await anyio.to_thread.run_sync(accounts.register, name, password, address, speaks)
    except AccountError as exc:
        return render(
            request, "register.html", status=400, error=exc.message, name=name[:32], next=nxt
        )
    except TooManyAttempts as exc:
        page = render(
            request, "register.html", status=429, error=exc.message, name=name[:32], next=nxt
        )
        return _too_many(page, exc)
    token = await anyio.to_thread.run_sync(accounts.open_session, user)
    # A newcomer who came to play a game goes on to it; one who came to the club, to the lobby.
    return _logged_in(request, user, token, nxt if nxt != "/" else "/?welcome=1")


@router.get("/login")
def login_page(request: Request):
    return render(
        request,
        "login.html",
        error=None,
        name="",
        next=_next(request),
        reset=request.query_params.get("reset") == "1",
    )


def safe_next(nxt: str) -> str:
    """Where to go after logging in or registering: a path of this club, never another site
    (``//host`` and ``/\\host`` are other sites to a browser)."""
    if nxt.startswith("/") and nxt[1:2] not in ("/", "\\") and len(nxt) <= 512:
        return nxt
    return "/"


def _next(request: Request) -> str:
    return safe_next(request.query_params.get("next", "/"))


def login_to(path: str) -> RedirectResponse:
    """The log-in page, coming back to ``path`` (with its query) afterwards."""
    return redirect("/login?" + urlencode({"next": path}))


@router.post("/login")
async def login(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    name = data.get("name", "")
    accounts = club(request).accounts
    password, address = data.get("password", ""), request_address(request)
    device = request.cookies.get(DEVICE_COOKIE)
    nxt = safe_next(data.get("next", "/"))
    try:
        user = await anyio.to_thread.run_sync(accounts.log_in, name, password, address, device)
    except AccountError as exc:
        return render(
            request, "login.html", status=400, error=exc.message, name=name[:32], next=nxt
        )
    except TooManyAttempts as exc:
        page = render(
            request, "login.html", status=429, error=exc.message, name=name[:32], next=nxt
        )
        return _too_many(page, exc)
    if user.language is None:  # a member from before languages were kept at registration
        await anyio.to_thread.run_sync(accounts.set_language, user.id, language(request).code)
    token = await anyio.to_thread.run_sync(accounts.open_session, user)
    return _logged_in(request, user, token, nxt)


def _too_many(response: Response, exc: TooManyAttempts) -> Response:
    """A refusal for reaching a limit says when to come back, also to programs."""
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _logged_in(request: Request, user: User, token: str, url: str) -> Response:
    """The session cookie, and the device cookie that trusts this browser with the account
    at its next log-in (:mod:`ludoteca.web.accounts.devices`)."""
    response = redirect(url)
    secure = request.url.scheme == "https"
    response.set_cookie(
        SESSION_COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="lax", secure=secure
    )
    response.set_cookie(
        DEVICE_COOKIE,
        club(request).accounts.trust_device(user, request.cookies.get(DEVICE_COOKIE)),
        max_age=DEVICE_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    return response


@router.post("/logout")
async def logout(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    await anyio.to_thread.run_sync(
        club(request).accounts.close_session, request.cookies.get(SESSION_COOKIE)
    )
    response = redirect("/")
    response.delete_cookie(SESSION_COOKIE)
    return response


# --- lobby ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Listed:
    """A game of the lobby's public lists, with what the lobby shows of it."""

    row: GameRow | ListedGame
    summary: dict[str, Any]

    def seated(self, user: User) -> bool:
        return seated(self.row.seats, user)

    def joinable_by(self, user: User) -> bool:
        return joinable(self.row.seats, user)


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
        recent = db.scalars(
            select(GameRow)
            .where(GameRow.status == "finished", GameRow.private.is_(False))
            .order_by(GameRow.finished.desc())
            .limit(10)
        ).all()
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
def lobby(request: Request):
    user = current_user(request)
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
    )


@router.get("/games/new")
def new_game_page(request: Request):
    if current_user(request) is None:  # back to this form, for this game, once logged in
        query = request.url.query
        return login_to(request.url.path + (f"?{query}" if query else ""))
    chosen = request.query_params.get("game")
    against = request.query_params.get("against") == "computer"
    return new_game_form(request, chosen, against_computer=against)


def new_game_form(
    request: Request,
    chosen: str | None,
    *,
    status: int = 200,
    error: Any = None,
    against_computer: bool = False,
) -> Response:
    """The new-game form: the computer levels described, and ``easy`` offered first, the
    level at which a newcomer has a game (``random`` only teaches the rules)."""
    return render(
        request,
        "new_game.html",
        status=status,
        games=catalogue(),
        chosen=chosen,
        levels=bot_levels(),
        level_about=LEVEL_ABOUT,
        default_level=FIRST_LEVEL,
        against_computer=against_computer,
        error=error,
    )


FIRST_LEVEL = "easy"
"""The computer a newcomer meets first (the lobby's *Play the computer*, the form's default):
it plays the move that looks best now, without looking ahead, so it punishes a blunder yet
can be beaten in a first game."""

LEVEL_ABOUT = {
    "random": N_("plays any legal move at random: for learning the rules"),
    "easy": N_("takes what looks best right now, without looking ahead: a fair first game"),
    "medium": N_("looks ahead a little: for players who know the game"),
    "hard": N_("searches about a second a move: a strong player"),
    "master": N_("searches several seconds a move: the strongest"),
}


@router.post("/games/quick")
async def quick_game(request: Request):
    """*Play the computer* on a lobby card: one click to a game against the computer at
    :data:`FIRST_LEVEL`, untimed and casual, one computer opposite (Hexagone's solo table
    has no opponent, so it is two seats where a game allows two). Logged out, the click
    leads to the log-in page and from there to the new-game form for that game."""
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    game_id = data.get("game", "")
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    user = current_user(request)
    if user is None:
        return login_to("/games/new?" + urlencode({"game": game_id, "against": "computer"}))
    cls = available_games()[game_id]
    level = FIRST_LEVEL if FIRST_LEVEL in bot_levels() else bot_levels()[0]
    players = min(max(2, cls.min_players), cls.max_players)
    seats = [SeatSpec("me"), *(SeatSpec("bot", bot=level) for _ in range(players - 1))]
    options = {"players": players} if cls.max_players != cls.min_players else {}
    games = club(request).games
    try:
        pk = await anyio.to_thread.run_sync(
            lambda: games.create(user, game_id, options, seats, GameSettings())
        )
    except NewGameRefused as exc:
        page = new_game_form(request, game_id, status=exc.status, error=exc.message)
        if exc.retry_after is not None:
            page.headers["Retry-After"] = str(exc.retry_after)
        return page
    club(request).hub.kick_bots(pk)
    return redirect(f"/games/{pk}")


def parse_seats(data: dict[str, str], players: int) -> list[SeatSpec]:
    specs = []
    for i in range(players):
        kind = data.get(f"seat{i}", "me" if i == 0 else "open")
        specs.append(
            SeatSpec(
                kind=kind,
                user=data.get(f"seat{i}_user", "")[:64],
                bot=data.get(f"seat{i}_bot", "")[:64],
            )
        )
    return specs


CLOCK_LIMITS = {
    "base": (1, 180, N_("The clock's base time is 1 to 180 minutes.")),
    "increment": (0, 60, N_("The clock's increment is 0 to 60 seconds a move.")),
    "days": (1, 14, N_("A correspondence game allows 1 to 14 days a move.")),
}


def _whole(data: dict[str, str], key: str, default: int) -> int:
    low, high, message = CLOCK_LIMITS[key]
    try:
        value = int(data.get(f"clock_{key}", "") or default)
    except ValueError:
        raise ClubError(message) from None
    if not low <= value <= high:
        raise ClubError(message)
    return value


def parse_settings(data: dict[str, str]) -> GameSettings:
    """Rated or casual, private or watchable, and the time control, from the new-game form.

    Live: ``clock_base`` minutes plus ``clock_increment`` seconds a move (Fischer);
    correspondence: ``clock_days`` days a move; ``none``: untimed."""
    kind = data.get("clock", "none")
    clock: dict[str, Any] | None
    if kind == "none":
        clock = None
    elif kind == "live":
        clock = {
            "kind": "live",
            "base": _whole(data, "base", 10) * 60,
            "increment": _whole(data, "increment", 5),
        }
    elif kind == "correspondence":
        clock = {"kind": "correspondence", "days": _whole(data, "days", 3)}
    else:
        raise ClubError(
            "Unknown time control {kind!r} (none, live or correspondence).", kind=kind[:20]
        )
    return GameSettings(
        rated=data.get("rated") == "on", private=data.get("private") == "on", clock=clock
    )


@router.post("/games")
async def create_game(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    user = require_user(request)
    game_id = data.get("game", "")
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    cls = available_games()[game_id]
    options: dict[str, Any] = {}
    players = cls.min_players
    if cls.max_players != cls.min_players:
        try:
            players = int(data.get("players", cls.min_players))
        except ValueError:
            raise ClubError("The number of players must be a number.") from None
        if not cls.min_players <= players <= cls.max_players:
            raise ClubError(
                "{title} is for {min_players} to {max_players} players.",
                title=cls.title,
                min_players=cls.min_players,
                max_players=cls.max_players,
            )
        options["players"] = players
    seats = parse_seats(data, players)
    settings = parse_settings(data)
    games = club(request).games
    try:
        pk = await anyio.to_thread.run_sync(
            lambda: games.create(user, game_id, options, seats, settings)
        )
    except NewGameRefused as exc:
        # A quota: the form again, with the reason (and, for a rate, when to come back).
        page = new_game_form(request, game_id, status=exc.status, error=exc.message)
        if exc.retry_after is not None:
            page.headers["Retry-After"] = str(exc.retry_after)
        return page
    club(request).hub.kick_bots(pk)
    return redirect(f"/games/{pk}")


async def _seat_form(request: Request, pk: int, action: str):
    """A checked form that joins, resigns or cancels a game, then tells its viewers."""
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    user = require_user(request)
    c = club(request)
    await anyio.to_thread.run_sync(getattr(c.games, action), pk, user)
    await c.hub.publish(pk)
    return c


@router.post("/games/{pk:id}/join")
async def join_game(pk: int, request: Request):
    c = await _seat_form(request, pk, "join")
    c.hub.kick_bots(pk)  # a full table may start with a computer to move
    return redirect(f"/games/{pk}")


@router.post("/games/{pk:id}/cancel")
async def cancel_game(pk: int, request: Request):
    """The creator withdraws a game nobody has joined yet; back to the lobby."""
    await _seat_form(request, pk, "cancel")
    return redirect("/")


@router.post("/games/{pk:id}/resign")
async def resign_game(pk: int, request: Request):
    await _seat_form(request, pk, "resign")
    return redirect(f"/games/{pk}")


@router.get("/games/{pk:id}")
def game_page(pk: int, request: Request):
    c = club(request)
    user = current_user(request)
    row, state, moves = c.games.snapshot(pk)  # one read of the game for the whole page
    view, view_text = page_view(row, state, moves, user, language(request), compact=True)
    can_join = may_join(row, user)
    can_cancel = may_cancel(row, user)
    rules = rules_context(row.game, language(request).code)
    players = c.lists.get(  # names link to profiles, with their rating (kept a second)
        ("players", pk, tuple(s.user_id for s in row.seats), c.games.listed),
        lambda: read_seat_ratings(c.store, row),
    )
    to_me = mine = rematch_game = None
    if row.status == "finished" and c.challenges is not None:
        to_me, mine = c.challenges.rematch_offers(pk, user)
        rematch_game = c.challenges.rematch_game(pk)
    return render(
        request,
        "game.html",
        view=view,
        view_json=script_json(view_text),
        module=row.game if page_module(row.game) else "",
        can_join=can_join,
        can_cancel=can_cancel,
        rules=rules,
        players=players,
        rated=row.rated,
        rematch_to_me=to_me,
        rematch_mine=mine,
        rematch_game=rematch_game,
    )


# --- replays -------------------------------------------------------------------------------------
def _finished(request: Request, pk: int) -> GameRow:
    """A finished game the asker may replay: a private game's replay, like the game, is for
    its players only."""
    row = club(request).games.row(pk)
    check_may_watch(row, current_user(request))
    if row.status != "finished":
        raise ClubError("A replay opens once the game is over.", 409)
    return row


@router.get("/games/{pk:id}/replay")
def replay_page(pk: int, request: Request):
    _finished(request, pk)
    c = club(request)
    row, moves, state = c.games.states_along(pk)
    played = [(m.text, m.player) for m in moves]
    names = log_names(row, state)
    steps, entries = replay_steps(played, game_log(state, played, names))
    chosen = [0]  # the players' moves before each ply: the numbers people read
    for _text, player in played:
        chosen.append(chosen[-1] + (player >= 0))
    with c.store.reading() as db:
        chat = chat_history(db, row, current_user(request))
    return render(
        request,
        "replay.html",
        game=game_summary(row, current_user(request)),
        moves=entries,
        steps=steps,
        numbers=[chosen[ply] for ply in steps],
        total=len(moves),
        chat=chat,
    )


def replay_steps(
    moves: list[tuple[str, int]], words: list[Any] | None = None
) -> tuple[list[int], list[dict]]:
    """The plies a replay stops at, and the game log's entries, one per step.

    A run of the table's draws is one step (Comino's deal: 21 draws, which took 21 presses
    before the first real move), told by its last draw's words; every other move is a step
    of its own. Plies stay those of the record: a step names the ply it ends at. ``words``
    holds the engine's words for each move (:func:`~ludoteca.web.round.log.game_log`)."""
    steps = [0]
    entries: list[dict] = []
    chosen = 0  # the players' moves so far: the log numbers those, not the table's draws
    for first, last in steps_of(moves):
        chosen += sum(1 for _t, p in moves[first : last + 1] if p >= 0)
        run = [t for t, _ in moves[first : last + 1]]
        label = (  # notation is not translated: a Text whose template is the move itself
            Text("{move}", {"move": run[0]})
            if len(run) == 1
            else Text("{count} draws", {"count": len(run)})
        )
        said = words[last] if words is not None else None
        entries.append(
            {
                "ply": last + 1,
                "number": chosen if moves[last][1] >= 0 else "",
                "text": label,
                "title": ", ".join(run),
                "words": said or "",
                "chance": moves[last][1] < 0,
            }
        )
        steps.append(last + 1)
    return steps, entries


@router.get("/api/games/{pk:id}/replay/{ply:id}")
def replay_step(pk: int, ply: int, request: Request):
    """The board at move ``ply`` of a game: a finished game's replay, or a look back at an
    earlier move of a game in progress (what its move list already shows to whoever may
    watch; nothing of the moves to come)."""
    row, moves, state = club(request).games.states_along(pk)
    check_may_watch(row, current_user(request))
    if not 0 <= ply <= len(moves):
        raise ClubError("Move number {ply} is outside 0..{count}.", 404, ply=ply, count=len(moves))
    for m in moves[:ply]:
        state.play(m.text)
    try:
        position = state.position()
    except GameError:
        position = ""
    scores = state.scores()
    words = language(request)
    return localized(
        {
            "ply": ply,
            "total": len(moves),
            "svg": board_svg(state, translate=words.text),
            "position": position,
            "last": moves[ply - 1].text if ply else "",
            "summary": (told(state, log_names(row, state)) if ply else None) or "",
            "scores": list(scores) if scores is not None else None,
            "to_move_side": state.side_name(state.to_move) if state.to_move >= 0 else "",
            "last_cells": last_cells(state, [PlayedMove.of(m) for m in moves[:ply]]),
        },
        words,
    )


@router.get("/rules/{game_id}/board.svg", include_in_schema=False)
def board_picture(game_id: str) -> Response:
    """A game's board after a few moves of a sample game, drawn by its engine: the lobby's
    cards show it."""
    if game_id not in available_games():
        raise ClubError("There is no such game.", 404)
    pictures = diagrams(game_id)
    if not pictures:
        raise ClubError("This game has no drawing.", 404)
    return Response(
        pictures[-1][1],
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/games/{pk:id}/record.json")
def record_download(pk: int, request: Request):
    _finished(request, pk)
    record = club(request).games.record(pk)
    return Response(
        record.dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ludoteca-{record.game}-{pk}.json"'},
    )


# --- rules ---------------------------------------------------------------------------------------
@router.get("/rules")
def rules_index(request: Request):
    return render(request, "rules_index.html", games=catalogue())


@router.get("/rules/{game_id}")
def rules_page(game_id: str, request: Request):
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", 404, game_id=game_id[:40])
    return render(request, "rules.html", rules=rules_context(game_id, language(request).code))
