"""The analysis board's page and JSON: open a position (from notation, or a step of a
finished game), play moves on it. The computer's view streams over ``/ws/analysis``
(:mod:`ludoteca.web.analysis.live`)."""

from __future__ import annotations

from urllib.parse import urlencode

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse

from ludoteca.core.messages import Text
from ludoteca.web.analysis.curve import annotated_marks, curve_svg
from ludoteca.web.analysis.positions import (
    board_view,
    moves_with_cell,
    options_for,
    played,
    state_of,
)
from ludoteca.web.analysis.rates import check_rate
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.throttle import request_address
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import SignedIn, check_csrf, club, current_user, language, render
from ludoteca.web.round.access import check_may_watch
from ludoteca.web.round.log import log_names

router = APIRouter()


def analysis_url(game_id: str, options: dict, position: str, find: str = "", lang: str = "") -> str:
    query = {"position": position, **({"players": options["players"]} if options else {})}
    if find:
        query["find"] = find
    if lang:  # the language asked for stays (it was English after a game's step)
        query["lang"] = lang
    return f"/analysis/{game_id}?{urlencode(query)}"


@router.get("/analysis/{game_id}")
def analysis_page(game_id: str, request: Request):
    """``?position=…`` (notation) or ``?game=PK&ply=N`` (a step of a finished game, which the
    page opens as its position); neither: the game's start."""
    params = request.query_params
    if params.get("game"):
        return RedirectResponse(from_game(request, game_id, params), status_code=303)
    limited(request)
    options = options_for(game_id, params.get("players"))
    state = state_of(game_id, options, params.get("position"))
    view = board_view(game_id, options, state, language(request))
    find = params.get("find", "")[:60]
    return render(
        request,
        "analysis.html",
        view=view,
        share=analysis_url(game_id, options, view["position"]),
        find=find,
    )


def from_game(request: Request, game_id: str, params) -> str:
    text, ply_text = params.get("game", ""), params.get("ply", "")
    if not text.isdigit() or (ply_text and not ply_text.isdigit()):
        raise ClubError("'game' and 'ply' are numbers.")
    games = club(request).games
    row, moves, state = games.states_along(int(text))
    check_may_watch(row, current_user(request))
    if row.game != game_id:
        raise ClubError("Game #{id} is not a game of {game_id}.", 404, id=row.id, game_id=game_id)
    if row.status != "finished":
        raise ClubError("A game is analysed once it is over (no help during play).", 409)
    ply = len(moves) if not ply_text else min(int(ply_text), len(moves))
    for m in moves[:ply]:
        state.play(m.text)
    find, lang = params.get("find", "")[:60], params.get("lang", "")[:8]
    return analysis_url(game_id, dict(row.options or {}), state.position(), find, lang)


@router.post("/api/analysis/{game_id}/play")
async def play(game_id: str, request: Request) -> JSONResponse:
    """Play ``move`` on ``position``: the new position as the page shows it. Nothing is
    stored and nothing needs an account: the board is the visitor's own."""
    await anyio.to_thread.run_sync(limited, request)
    data = json_object(await request.body())
    options = options_for(game_id, data.get("players"))
    position = data.get("position")
    if not isinstance(position, str):
        raise ClubError("'position' is the position in the game's notation.")
    after = played(state_of(game_id, options, position), data.get("move"))
    return JSONResponse(
        board_view(game_id, options, after, language(request), str(data.get("move", "")))
    )


@router.get("/api/analysis/{game_id}/moves")
def moves_naming(game_id: str, request: Request) -> JSONResponse:
    """The legal moves of ``?position=`` naming ``?cell=``, whole: what the page asks once
    a cell is clicked when the position's moves came in the compact form."""
    limited(request)
    params = request.query_params
    options = options_for(game_id, params.get("players"))
    state = state_of(game_id, options, params.get("position") or None)
    cell = params.get("cell")
    return JSONResponse(
        {
            "position": state.position(),
            "cell": cell,
            "moves": moves_with_cell(state, cell, language(request)),
        }
    )


def limited(request: Request) -> None:
    """Refuse (429) a visitor asking for positions faster than anyone reads them
    (:mod:`ludoteca.web.analysis.rates`)."""
    user = current_user(request)
    check_rate(user.id if user is not None else None, request_address(request))


# --- computer review ---------------------------------------------------------------------------
def review_json(review) -> dict:
    if review is None:
        return {"status": "none"}
    return {
        "status": review.status,
        "done": review.done,
        "total": review.total,
        "values": review.values,
        "marks": review.marks or [],
        "error": review.error,
    }


@router.post("/games/{pk:id}/review")
async def request_review(pk: int, request: Request, user: SignedIn):
    """Ask for the computer's review of a finished game (from its replay page)."""
    await form(request)  # its CSRF token checked
    await anyio.to_thread.run_sync(lambda: club(request).reviews.request(pk, user))
    return RedirectResponse(f"/games/{pk}/replay#review", status_code=303)


@router.get("/api/games/{pk:id}/review")
def review_status(pk: int, request: Request) -> JSONResponse:
    row = club(request).games.row(pk)
    check_may_watch(row, current_user(request))
    review = club(request).reviews.get(pk)
    out = review_json(review)
    if review is not None and review.status == "done":
        # numbered by the players' own moves and named by who made them (not the deal's
        # draws, not seat numbers); the curve drawn in the reader's language
        row, moves, state = club(request).games.states_along(pk)
        words = language(request)
        players = [m.player for m in moves]
        names = [words.text(n) for n in log_names(row, state)]
        out["marks"] = annotated_marks(out["marks"], players, names)
        out["svg"] = curve_svg(review.values or [], out["marks"], players, names, words.text)
    return JSONResponse(out)


# --- "find the better move" (from a review's mistakes) ---------------------------------------
COMPARE_ITERATIONS = 400
"""Simulations per position compared: the review's own measure (400 a position)."""


@router.post("/api/analysis/{game_id}/compare")
async def compare(game_id: str, request: Request, user: SignedIn) -> JSONResponse:
    """Whether ``move`` is better than ``played`` (the game's mistake) on ``position``: each
    position after them evaluated by the review's search, for the side that moved."""
    from ludoteca.bots.position_analysis import evaluate

    data = json_object(await request.body())
    check_csrf(request, data.get("csrf"))
    options = options_for(game_id, data.get("players"))
    position = data.get("position")
    if not isinstance(position, str):
        raise ClubError("'position' is the position in the game's notation.")
    state = state_of(game_id, options, position)
    mover = state.to_move
    if mover < 0:
        raise ClubError("The table draws here: there is no move to find.")
    mine = played(state, data.get("move"))
    theirs = played(state, data.get("played"))

    def values() -> tuple[float, float]:
        a = evaluate(game_id, options, mine.position(), COMPARE_ITERATIONS)[mover]
        b = evaluate(game_id, options, theirs.position(), COMPARE_ITERATIONS)[mover]
        return a, b

    a, b = await anyio.to_thread.run_sync(values)
    words = language(request)
    if mine.position() == theirs.position():
        verdict = Text("That is the move played in the game.")
    elif a >= b + BETTER_BY:
        verdict = Text(
            "Better: {mine} expected against {theirs} for the game's move.",
            {"mine": f"{a:.0%}", "theirs": f"{b:.0%}"},
        )
    else:
        verdict = Text(
            "Not clearly better: {mine} expected against {theirs} for the game's move.",
            {"mine": f"{a:.0%}", "theirs": f"{b:.0%}"},
        )
    return JSONResponse(
        {
            "better": a >= b + BETTER_BY and mine.position() != theirs.position(),
            "mine": round(a, 4),
            "theirs": round(b, 4),
            "verdict": words.text(verdict),
        }
    )


BETTER_BY = 0.05
"""How much more a found move must promise than the game's move to count as better (half the
review's drop for an inaccuracy)."""
