"""Offers over the game's websocket and its JSON routes (the rules are :mod:`.offers`).

A page sends ``{"type": "offer", "action": …, "kind": …, "csrf": …}`` on the game socket it
already has: ``action`` is ``make``, ``accept``, ``decline``, or ``state`` (send me the
offers as they are). Every offer event committed, in any process, sends the players of its
game connected to each process their offers again (``{"type": "offers", …}``, see
:func:`.offers.view`); a change it makes to the game (an abort, a draw, a takeback) reaches
every watcher as a move does.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.store import GameRow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import SignedIn, Visitor, check_csrf, club
from ludoteca.web.round import offers
from ludoteca.web.round.access import check_may_watch
from ludoteca.web.round.offer_models import OfferEvent

router = APIRouter()
ACTIONS = ("make", "accept", "decline", "state")


def validate(data: dict[str, Any]) -> None:
    if data.get("action") not in ACTIONS:
        raise ClubError("An offer message needs 'action': make, accept, decline or state.")
    if data["action"] != "state" and data.get("kind") not in offers.KINDS:
        raise ClubError("An offer is one of: abort, draw, takeback.")


def act(games, pk: int, user, action: str, kind: Any) -> str:
    """Make, accept or decline an offer (in play's threads)."""
    if action == "make":
        return offers.make(games, pk, user, kind)
    return offers.answer(games, pk, user, kind, action == "accept")


def _view_text(games, pk: int, user) -> str:
    return json.dumps(offers.view(games, pk, user), ensure_ascii=False)


async def on_message(hub, conn: Connection, data: dict[str, Any]) -> None:
    """An ``offer`` message from a game socket (its CSRF token already checked)."""
    user = conn.user
    if user is None:
        raise ClubError("Please log in to play.", 401)
    games, pk = hub.games, conn.pk
    if data["action"] == "state":
        conn.send_reply(await hub.play(_view_text, games, pk, user))
        return
    await settle(hub, pk, lambda: act(games, pk, user, data["action"], data["kind"]))


async def settle(hub, pk: int, change) -> str:
    """Run an offer's ``change`` in play's threads; if it was agreed, the game changed (it
    ended, or went back): every watcher here is sent it, as after a move. An offer alone
    changes no board: its players are told by its event (:func:`deliver`)."""
    done = await hub.play(change)
    if done == "agreed":
        await hub.publish(pk)
        hub.kick_bots(pk)
    return done


def event_of(obj: object) -> tuple[str, int] | None:
    """Offer events are announced once committed (:func:`deliver`)."""
    return ("offer", obj.id) if isinstance(obj, OfferEvent) else None


async def deliver(hub, event_id: int) -> None:
    """An offer event was committed (here or in another process): send this process's
    connected players of its game their offers as they are now."""
    games = hub.games

    def plan() -> list[tuple[Connection, str]]:
        with games.store.reading() as db:
            event = db.get(OfferEvent, event_id)
            if event is None:
                return []
            pk = event.game_id
            if event.action == "agreed" and event.kind == "takeback":
                games.cache.forget(pk)  # another process took moves back: read them again
            row = db.get(GameRow, pk)
            players = {s.user_id for s in row.seats} if row is not None else set()
        # the players only: spectators are not shown what the players offer each other
        conns = [
            c for c in hub.connections.get(pk, ()) if c.user_id is not None and c.user_id in players
        ]
        texts: dict[int, str] = {}
        out = []
        for conn in conns:
            if conn.user.id not in texts:
                texts[conn.user.id] = _view_text(games, pk, conn.user)
            out.append((conn, texts[conn.user.id]))
        return out

    for conn, text in await anyio.to_thread.run_sync(plan):
        conn.send_reply(text)


# --- without a socket --------------------------------------------------------------------------
@router.get("/api/games/{pk:id}/offers")
def offers_state(pk: int, request: Request, user: Visitor) -> JSONResponse:
    games = club(request).games
    check_may_watch(games.row(pk), user)
    return JSONResponse(offers.view(games, pk, user))


@router.post("/api/games/{pk:id}/offers")
async def offers_post(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    """``{"action": "make"|"accept"|"decline", "kind": "abort"|"draw"|"takeback"}``."""
    data = json_object(await request.body())
    check_csrf(request, request.headers.get("x-csrf-token"))
    validate(data)
    if data["action"] == "state":
        raise ClubError("Ask for the offers with GET.", 405)
    hub = club(request).hub
    done = await settle(hub, pk, lambda: act(hub.games, pk, user, data["action"], data["kind"]))
    return JSONResponse({"ok": True, "done": done})
