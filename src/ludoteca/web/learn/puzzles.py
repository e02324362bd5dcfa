"""``/puzzles``, ``/puzzles/<game>``, ``/puzzles/daily``: the shipped puzzles, solved on the
real board. The answer was proven offline (``ludoteca.puzzles.prove``); here a tried move is
judged against it: refused (the engine's reason), wrong (with the line that refutes it), or
right. A member's first try at a puzzle moves both Glicko-2 ratings (the member's and the
puzzle's, as lichess rates puzzles) and the member's streak."""

from __future__ import annotations

import hashlib
import random
from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.core.registry import get as get_game
from ludoteca.puzzles.prove import Puzzle, gain, two_turn_line
from ludoteca.puzzles.shipped import GAMES, by_id, puzzles
from ludoteca.web.analysis.positions import board_view
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.store import User
from ludoteca.web.learn.course import why_not
from ludoteca.web.learn.models import PuzzleAttempt, PuzzlePlayer, PuzzleRating
from ludoteca.web.ratings.service import Standing, glicko_pair
from ludoteca.web.requests import check_csrf, club, current_user, language, render
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.errors import ClubError

router = APIRouter()

THEME_NAMES = {
    "close": Text("Close a group and win"),
    "only-win": Text("The only winning move"),
    "most-score": Text("The move that scores most"),
    "biggest-area": Text("The placement that scores most"),
    "capture": Text("The biggest capture"),
}


def daily(today: date | None = None) -> Puzzle | None:
    """The day's puzzle: the same for everyone, chosen from the date."""
    every = [p for g in GAMES for p in puzzles(g)]
    if not every:
        return None
    day = (today or date.today()).isoformat()
    digest = int(hashlib.sha256(day.encode()).hexdigest(), 16)
    return sorted(every, key=lambda p: p.id)[digest % len(every)]


def _puzzle(puzzle_id: str) -> Puzzle:
    found = by_id().get(puzzle_id)
    if found is None:
        raise ClubError("There is no puzzle {id!r}.", 404, id=str(puzzle_id)[:20])
    return found


def _state(p: Puzzle):
    return get_game(p.game, **p.options).from_position(p.position)


def _player(request: Request, user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    with club(request).store.reading() as db:
        row = db.get(PuzzlePlayer, user.id)
        if row is None:
            return {"rating": 1500, "streak": 0, "best_streak": 0, "plays": 0}
        return {
            "rating": round(row.rating),
            "streak": row.streak,
            "best_streak": row.best_streak,
            "plays": row.plays,
        }


@router.get("/puzzles")
def puzzles_index(request: Request):
    games = [
        {"id": g, "title": available_games()[g].title, "count": len(puzzles(g))}
        for g in GAMES
        if g in available_games()
    ]
    return render(
        request,
        "puzzles_index.html",
        games=games,
        daily=daily(),
        me=_player(request, current_user(request)),
    )


@router.get("/puzzles/daily")
def daily_page(request: Request):
    p = daily()
    if p is None:
        raise ClubError("There are no puzzles yet.", 404)
    return _page(request, p, daily=True)


@router.get("/puzzles/{game_id}")
def game_puzzle(game_id: str, request: Request):
    if game_id not in GAMES or game_id not in available_games():
        raise ClubError("There are no puzzles of {game_id!r}.", 404, game_id=game_id[:40])
    wanted = request.query_params.get("id")
    if wanted:
        p = _puzzle(wanted)
        if p.game != game_id:
            return RedirectResponse(f"/puzzles/{p.game}?id={p.id}", status_code=303)
        return _page(request, p)
    choices = puzzles(game_id)
    if not choices:
        raise ClubError("There are no puzzles of {game_id!r}.", 404, game_id=game_id)
    return RedirectResponse(f"/puzzles/{game_id}?id={random.choice(choices).id}", status_code=303)


def _page(request: Request, p: Puzzle, daily: bool = False):
    words = language(request)
    return render(
        request,
        "puzzle.html",
        puzzle=p,
        title=available_games()[p.game].title,
        theme=words.text(THEME_NAMES.get(p.theme, Text(p.theme))),
        daily=daily,
        me=_player(request, current_user(request)),
    )


@router.get("/api/puzzles/{puzzle_id}")
def puzzle_view(puzzle_id: str, request: Request) -> JSONResponse:
    p = _puzzle(puzzle_id)
    view = board_view(p.game, p.options, _state(p), language(request))
    view["id"] = p.id
    return JSONResponse(view)


def _words_for_wrong(p: Puzzle, state, move_text: str, words) -> tuple[str, list[str]]:
    """Why a legal move is not the answer: the refuting line (an exact solver's proof: its reply) or
    what the move gains against what the answer gains (the other games)."""
    if p.proof.get("method") == "exact solver":
        line = p.refutations.get(move_text, [])
        value = p.proof.get("others", {}).get(move_text)
        why = (
            Text("That loses: the opponent answers {line}.", {"line": " ".join(line)})
            if value == -1 and line
            else Text(
                "That does not win: the opponent holds with {line}.", {"line": " ".join(line)}
            )
            if line
            else Text("That does not win.")
        )
        return words.text(why), line
    if p.proof.get("method") == "exact two turns":
        mine, theirs, line = two_turn_line(state, state.str_to_move(move_text))
        best = p.proof["gain"]
        reply = p.proof["gain"] - p.proof["net"]
        why = (
            Text(
                "That scores {mine:g}, and the opponent answers {line}, scoring {theirs:g}. The"
                " best move scores {best:g}; the opponent's best answer to it scores {reply:g}.",
                {"mine": mine, "line": " ".join(line), "theirs": theirs}
                | {"best": best, "reply": reply},
            )
            if line
            else Text(
                "That scores {mine:g} and ends the game. The best move scores {best:g}; the"
                " opponent's best answer to it scores {reply:g}.",
                {"mine": mine, "best": best, "reply": reply},
            )
        )
        return words.text(why), line
    mine = gain(state, state.str_to_move(move_text))
    best = gain(state, state.str_to_move(p.answer))
    return words.text(
        Text("That gains {mine:g}; the best move gains {best:g}.", {"mine": mine, "best": best})
    ), []


def _rate(request: Request, user: User, p: Puzzle, solved: bool) -> dict[str, Any]:
    with club(request).store.session() as db:
        me = db.get(PuzzlePlayer, user.id)
        if me is None:
            me = PuzzlePlayer(
                user_id=user.id,
                rating=1500.0,
                deviation=350.0,
                volatility=0.06,
                plays=0,
                streak=0,
                best_streak=0,
            )
            db.add(me)
        me.streak = (me.streak + 1) if solved else 0
        me.best_streak = max(me.best_streak, me.streak)
        first = db.get(PuzzleAttempt, (user.id, p.id)) is None
        before = me.rating
        if first:
            rated = db.get(PuzzleRating, p.id)
            if rated is None:
                rated = PuzzleRating(
                    puzzle_id=p.id,
                    game=p.game,
                    rating=1500.0,
                    deviation=350.0,
                    volatility=0.06,
                    plays=0,
                )
                db.add(rated)
            a, b = glicko_pair(
                Standing(me.rating, me.deviation, me.volatility),
                Standing(rated.rating, rated.deviation, rated.volatility),
                1.0 if solved else 0.0,
            )
            me.rating, me.deviation, me.volatility = a.rating, a.deviation, a.volatility or 0.06
            rated.rating, rated.deviation = b.rating, b.deviation
            rated.volatility = b.volatility or 0.06
            rated.plays += 1
            me.plays += 1
            db.add(PuzzleAttempt(user_id=user.id, puzzle_id=p.id, solved=solved))
        db.commit()
        return {
            "rating": round(me.rating),
            "change": round(me.rating - before),
            "streak": me.streak,
            "best_streak": me.best_streak,
            "rated": first,
        }


@router.post("/api/puzzles/{puzzle_id}")
async def try_puzzle(puzzle_id: str, request: Request) -> JSONResponse:
    p = _puzzle(puzzle_id)
    data: dict[str, Any] = json_object(await request.body())
    words = language(request)
    state = _state(p)
    cells = data.get("cells")
    if cells is not None:
        if (
            not isinstance(cells, list)
            or len(cells) > 6
            or not all(isinstance(x, str) and len(x) < 20 for x in cells)
        ):
            raise ClubError("'cells' is a list of the board's cell names.")
        view = board_view(p.game, p.options, state, words)
        reason = why_not(state, cells, view["legal"])
        return JSONResponse(
            {"ok": False, "refused": True, "reason": words.text(reason) if reason else ""}
        )
    text = data.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise ClubError("A move is a non-empty text in the game's notation.")
    try:
        move = state.str_to_move(text.strip())
        after = state.clone()
        after.play(move)
    except GameError as exc:
        return JSONResponse({"ok": False, "refused": True, "reason": words.text(exc.text)})
    played = state.move_to_str(move)
    solved = played == p.answer
    out: dict[str, Any] = {"ok": solved, "refused": False, "answer": p.answer}
    if solved:
        out["reason"] = words.text(Text("Right: that is the move."))
        out["after"] = board_view(p.game, p.options, after, words, played)
    else:
        out["reason"], out["line"] = _words_for_wrong(p, state, played, words)
        answer_after = state.clone()
        answer_after.play(state.str_to_move(p.answer))
        out["after"] = board_view(p.game, p.options, answer_after, words, p.answer)
    user = current_user(request)
    if user is not None:
        check_csrf(request, data.get("csrf"))
        out["me"] = _rate(request, user, p, solved)
    return JSONResponse(out)
