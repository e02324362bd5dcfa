"""``/learn`` and ``/learn/<game>``: each game's course on the real board, and the JSON the
page plays it through. The engine judges every tried move (:func:`.course.judge`); the page
holds no rule. A member's progress is stored (``lesson_progress``); a visitor's is kept by
the browser (``localStorage``), so the course needs no account."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from ludoteca.core.messages import Text
from ludoteca.web.analysis.positions import board_view
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.store import User, utcnow
from ludoteca.web.learn.course import GAMES, course, judge, why_not
from ludoteca.web.learn.models import LessonProgress
from ludoteca.web.requests import check_csrf, club, current_user, language, render
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.errors import ClubError

router = APIRouter()


def _course(game_id: str):
    if game_id not in GAMES or game_id not in available_games():
        raise ClubError("There is no course for {game_id!r}.", 404, game_id=str(game_id)[:40])
    return course(game_id)


def progress_of(request: Request, user: User | None) -> dict[str, int]:
    """Steps done per game for a member (``{}`` for a visitor: the browser keeps theirs)."""
    if user is None:
        return {}
    with club(request).store.reading() as db:
        rows = db.scalars(select(LessonProgress).where(LessonProgress.user_id == user.id))
        return {row.game: row.steps_done for row in rows}


def record_progress(request: Request, user: User, game_id: str, steps_done: int) -> int:
    """Keep the furthest step a member reached (never moves back)."""
    with club(request).store.session() as db:
        row = db.get(LessonProgress, (user.id, game_id))
        if row is None:
            row = LessonProgress(user_id=user.id, game=game_id, steps_done=0)
            db.add(row)
        row.steps_done = max(row.steps_done or 0, steps_done)
        row.updated = utcnow()
        db.commit()
        return row.steps_done


@router.get("/learn")
def learn_index(request: Request):
    user = current_user(request)
    done = progress_of(request, user)
    games = [
        {
            "id": g,
            "title": available_games()[g].title,
            "steps": len(course(g).steps),
            "done": done.get(g, 0),
        }
        for g in GAMES
        if g in available_games()
    ]
    return render(request, "learn_index.html", games=games, member=user is not None)


@router.get("/learn/{game_id}")
def learn_page(game_id: str, request: Request):
    c = _course(game_id)
    user = current_user(request)
    words = language(request)
    steps = [words.text(Text(s.text)) for s in c.steps]
    return render(
        request,
        "learn.html",
        game=game_id,
        title=available_games()[game_id].title,
        steps=steps,
        done=progress_of(request, user).get(game_id, 0),
    )


def _step(game_id: str, number: object):
    c = _course(game_id)
    if not isinstance(number, int) and not str(number).isdigit():
        raise ClubError("A step is a number.")
    n = int(str(number))
    if not 1 <= n <= len(c.steps):
        raise ClubError("This course has no step {n}.", 404, n=n)
    return c, n


@router.get("/api/learn/{game_id}/{number}")
def step_view(game_id: str, number: str, request: Request) -> JSONResponse:
    """Step ``number`` (from 1): its sentence and its position as the page shows it."""
    c, n = _step(game_id, number)
    words = language(request)
    view = board_view(game_id, c.options, c.state(n - 1), words)
    view["text"] = words.text(Text(c.steps[n - 1].text))
    view["step"], view["steps"] = n, len(c.steps)
    return JSONResponse(view)


@router.post("/api/learn/{game_id}/{number}")
async def try_move(game_id: str, number: str, request: Request) -> JSONResponse:
    """A tried move (``move``, in notation) or a click that makes none (``cells``): the
    engine's verdict in words; when right, the position after it, and the member's
    progress kept."""
    c, n = _step(game_id, number)
    data: dict[str, Any] = json_object(await request.body())
    words = language(request)
    step = c.steps[n - 1]
    state = c.state(n - 1)
    cells = data.get("cells")
    if cells is not None:
        if (
            not isinstance(cells, list)
            or not all(isinstance(x, str) and len(x) < 20 for x in cells)
            or len(cells) > 6
        ):
            raise ClubError("'cells' is a list of the board's cell names.")
        view = board_view(game_id, c.options, state, words)
        reason = why_not(state, cells, view["legal"])
        return JSONResponse({"ok": False, "reason": words.text(reason) if reason else ""})
    text = data.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise ClubError("A move is a non-empty text in the game's notation.")
    verdict = judge(state, text.strip(), step.goal)
    out: dict[str, Any] = {"ok": verdict.ok, "reason": words.text(verdict.reason)}
    if verdict.ok and verdict.after is not None:
        out["after"] = board_view(game_id, c.options, verdict.after, words, text.strip())
        if step.done:
            out["reason"] = words.text(Text(step.done))
        user = current_user(request)
        if user is not None:
            check_csrf(request, data.get("csrf"))
            out["done"] = record_progress(request, user, game_id, n)
        out["finished"] = n == len(c.steps)
    return JSONResponse(out)
