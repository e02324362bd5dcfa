"""``/stats`` and its plots."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ludoteca.web.requests import club, language, render
from ludoteca.web.round.errors import ClubError

router = APIRouter()


@router.get("/stats")
async def stats_page(request: Request):
    snap = await anyio.to_thread.run_sync(club(request).stats.snapshot)
    return render(request, "stats.html", stats=snap.numbers)


@router.get("/api/stats")
async def stats_json(request: Request) -> JSONResponse:
    snap = await anyio.to_thread.run_sync(club(request).stats.snapshot)
    return JSONResponse(snap.numbers)


@router.get("/stats/{name}.png")
async def stats_plot(name: str, request: Request) -> Response:
    snap = await anyio.to_thread.run_sync(club(request).stats.snapshot)
    png = await anyio.to_thread.run_sync(snap.plot, name, language(request))
    if png is None:
        raise ClubError("There is no such plot.", 404)
    return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=60"})
