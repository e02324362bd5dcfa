"""Following members, ``/following`` with who of them is online and playing, the setting
that hides one's own presence, and the lobby's live counts."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import quote

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from ludoteca.web.infra.store import User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form, redirect
from ludoteca.web.kernel.requests import SignedIn, club, render
from ludoteca.web.presence import service

log = logging.getLogger("ludoteca.web")
router = APIRouter()


def _named(store, name: str) -> User:
    with store.reading() as db:
        other = db.scalar(select(User).where(User.name_key == name.strip().lower()[:64]))
    if other is None:
        raise ClubError("There is no user named {name!r}.", 404, name=name[:32])
    return other


@router.post("/users/{name}/follow")
async def follow(name: str, request: Request, user: SignedIn):
    await form(request)
    store = club(request).store
    await anyio.to_thread.run_sync(lambda: service.follow(store, user, _named(store, name)))
    return redirect(f"/users/{quote(name[:32])}")


@router.post("/users/{name}/unfollow")
async def unfollow(name: str, request: Request, user: SignedIn):
    data = await form(request)
    store = club(request).store
    await anyio.to_thread.run_sync(lambda: service.unfollow(store, user, _named(store, name)))
    back = "/following" if data.get("next") == "/following" else f"/users/{quote(name[:32])}"
    return redirect(back)


@router.get("/following")
def following_page(request: Request, user: SignedIn):
    store = club(request).store
    with store.reading() as db:
        hidden = service.hidden(db, user.id)
    return render(
        request, "following.html", people=service.following(store, user.id), hidden=hidden
    )


@router.post("/settings/presence")
async def presence_setting(request: Request, user: SignedIn):
    data = await form(request)
    hide = data.get("hidden") == "on"
    await anyio.to_thread.run_sync(service.set_hidden, club(request).store, user.id, hide)
    return redirect("/following")


@router.get("/lobby/counts")
def live_counts(request: Request) -> JSONResponse:
    """People online and games in play, for the lobby's line that keeps itself current."""
    c = club(request)
    numbers = c.lists.get(("counts",), lambda: service.counts(c.store))
    return JSONResponse(numbers, headers={"Cache-Control": "no-store"})


async def beat_forever(c) -> None:
    """Every :data:`service.BEAT_SECONDS`: the members with a page open on this process are
    still online."""
    while True:
        await asyncio.sleep(service.BEAT_SECONDS)
        try:
            inbox = c.inbox
            if inbox is not None and inbox.sockets:
                await anyio.to_thread.run_sync(service.beat, c.store, list(inbox.sockets))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the presence beat failed")
