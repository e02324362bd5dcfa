"""The daily solo challenge's pages and JSON (see :mod:`.solo`)."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ludoteca.puzzles import daily
from ludoteca.web.analysis.positions import board_view
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.store import User
from ludoteca.web.learn import solo
from ludoteca.web.learn.models import SoloEntry
from ludoteca.web.requests import check_csrf, club, current_user, language, render
from ludoteca.web.round.errors import ClubError

router = APIRouter()
OPTIONS = daily.OPTIONS
BOARD_LENGTH = 20


def _entries(request: Request, day: str) -> list[dict[str, Any]]:
    with club(request).store.reading() as db:
        rows = db.execute(
            select(SoloEntry.id, SoloEntry.score, User.name)
            .join(User, User.id == SoloEntry.user_id)
            .where(SoloEntry.day == day)
            .order_by(SoloEntry.score.desc(), SoloEntry.at)
            .limit(BOARD_LENGTH)
        ).all()
    return [{"id": r.id, "score": r.score, "name": r.name} for r in rows]


def _mine(request: Request, user: User | None, day: str) -> SoloEntry | None:
    if user is None:
        return None
    with club(request).store.reading() as db:
        return db.scalar(
            select(SoloEntry).where(SoloEntry.day == day, SoloEntry.user_id == user.id)
        )


@router.get("/challenge")
def challenge_today(request: Request):
    return _page(request, solo.today().isoformat())


@router.get("/challenge/{day}")
def challenge_day(day: str, request: Request):
    return _page(request, solo.parse_day(day).isoformat())


def _page(request: Request, day: str):
    d = solo.parse_day(day)
    bar, _ = solo.planner_score(d)
    user = current_user(request)
    mine = _mine(request, user, day)
    return render(
        request,
        "challenge.html",
        day=day,
        live=d == solo.today(),
        bar=bar,
        entries=_entries(request, day),
        mine=mine.score if mine else None,
    )


def _view(request: Request, day, moves: list[str]) -> dict[str, Any]:
    state, rolls = solo.replay(day, moves)
    view = board_view(daily.GAME, OPTIONS, state, language(request))
    view.update(solo.view_extra(state, rolls))
    view["moves"] = moves
    return view


@router.get("/api/challenge/{day}")
def challenge_start(day: str, request: Request) -> JSONResponse:
    d = solo.parse_day(day)
    return JSONResponse(_view(request, d, []))


@router.post("/api/challenge/{day}/play")
async def challenge_play(day: str, request: Request) -> JSONResponse:
    """``moves`` so far and the next ``move``: the position after it (the day's dice rolled
    as they come). Nothing is stored until the finished game is entered."""
    d = solo.parse_day(day)
    data = json_object(await request.body())
    moves = solo.checked_moves(data.get("moves", []))
    move = data.get("move")
    if not isinstance(move, str) or not move.strip():
        raise ClubError("A move is a non-empty text in the game's notation.")
    return JSONResponse(_view(request, d, [*moves, move.strip()]))


@router.post("/api/challenge/{day}/enter")
async def challenge_enter(day: str, request: Request) -> JSONResponse:
    """Enter a finished game (a member's first of the day counts): replayed here."""
    d = solo.parse_day(day)
    data = json_object(await request.body())
    user = current_user(request)
    if user is None:
        raise ClubError("Log in to enter the challenge.", 401)
    check_csrf(request, data.get("csrf"))
    if d != solo.today():
        raise ClubError("That day's challenge is over.", 409)
    moves = solo.checked_moves(data.get("moves"))
    state, _ = solo.replay(d, moves)
    if not state.is_over:
        raise ClubError("Finish the game before entering it.", 409)
    score = solo.captured(state)

    def store() -> bool:
        with club(request).store.session() as db:
            db.add(SoloEntry(day=day, user_id=user.id, score=score, moves=moves))
            try:
                db.commit()
            except IntegrityError:
                return False
            return True

    if not await anyio.to_thread.run_sync(store):
        raise ClubError("You have already entered today's challenge.", 409)
    return JSONResponse({"ok": True, "score": score, "entries": _entries(request, day)})


@router.get("/challenge/{day}/entries/{pk:int}")
def challenge_replay(day: str, pk: int, request: Request):
    """An entry replayed move by move (``?ply=N``), once its day is over (or by its player)."""
    d = solo.parse_day(day)
    with club(request).store.reading() as db:
        entry = db.get(SoloEntry, pk)
        name = db.scalar(select(User.name).where(User.id == entry.user_id)) if entry else None
    if entry is None or entry.day != day:
        raise ClubError("There is no such entry.", 404)
    user = current_user(request)
    if d == solo.today() and (user is None or user.id != entry.user_id):
        raise ClubError("Entries can be replayed once the day is over.", 403)
    text = request.query_params.get("ply", "")
    ply = int(text) if text.isdigit() else len(entry.moves)
    ply = min(ply, len(entry.moves))
    state, rolls = solo.replay(d, entry.moves[:ply])
    view = board_view(daily.GAME, OPTIONS, state, language(request))
    return render(
        request,
        "challenge_replay.html",
        day=day,
        entry=entry,
        name=name,
        ply=ply,
        total=len(entry.moves),
        view=view,
        captured=solo.captured(state),
    )
