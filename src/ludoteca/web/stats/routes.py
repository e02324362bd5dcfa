"""``/stats`` and its plots."""

from __future__ import annotations

import logging

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from markupsafe import Markup

from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import club, language, render
from ludoteca.web.stats.service import PLOTS, Snapshot, months_table

router = APIRouter()
log = logging.getLogger("ludoteca.web")


@router.get("/stats")
async def stats_page(request: Request):
    stats = club(request).stats
    snap = await anyio.to_thread.run_sync(stats.snapshot)
    words = language(request)
    plots = {name: drawn(snap, name, words) for name in PLOTS}
    return render(
        request,
        "stats.html",
        stats=snap.numbers,
        computed=snap.computed,
        failed_at=stats.failed_at,
        plots=plots,
        months=months_table(snap.numbers["months"]),
    )


def drawn(snap: Snapshot, name: str, words: Language) -> Markup | bool | None:
    """The plot ``name`` for the page; ``False`` (and a line in the log) if it could not be
    drawn, so that the page and its table still show."""
    try:
        return snap.plot(name, words)
    except Exception:
        log.exception("The %s plot of the stats could not be drawn", name)
        return False


@router.get("/api/stats")
async def stats_json(request: Request) -> JSONResponse:
    snap = await anyio.to_thread.run_sync(club(request).stats.snapshot)
    return JSONResponse(snap.numbers)


@router.get("/stats/{name}.svg")
async def stats_plot(name: str, request: Request) -> Response:
    """One plot on its own (SVG, its colours following the reader's light or dark theme);
    no content (204) while there is nothing to draw."""
    if name not in PLOTS:
        raise ClubError("There is no such plot.", 404)
    snap = await anyio.to_thread.run_sync(club(request).stats.snapshot)
    svg = snap.plot(name, language(request), standalone=True)
    if svg is None:
        return Response(status_code=204, headers={"Cache-Control": "max-age=60"})
    return Response(str(svg), media_type="image/svg+xml", headers={"Cache-Control": "max-age=60"})


@router.get("/stats/{name}.png")
async def stats_plot_png(name: str, request: Request) -> Response:
    """The plots were PNG pictures once: their old addresses lead to the SVG."""
    if name not in PLOTS:
        raise ClubError("There is no such plot.", 404)
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"/stats/{name}.svg{query}", status_code=301)
