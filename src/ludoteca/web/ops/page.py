"""``/operator``: the club at a glance for its staff (members with the moderator role,
granted with ``ludoteca admin grant``): live games, members online, the computer players'
queue, the mail outbox, open reports and the errors this process logged lately.

The in-memory figures (sockets, queue, errors) are this process's; the database's (games,
outbox, reports) are the whole club's. With several processes each page says which one
answered it.
"""

from __future__ import annotations

import os
import socket

import anyio
from fastapi import APIRouter, Request

from ludoteca.web.moderation import service as moderation
from ludoteca.web.ops.overview import club_counts
from ludoteca.web.ops.recent import RECENT
from ludoteca.web.requests import club, current_user, render

router = APIRouter()


@router.get("/operator")
async def operator_page(request: Request):
    the_club = club(request)

    def read():
        user = current_user(request)
        with the_club.store.session() as db:
            moderation.require_moderator(db, user)
            suspended = len(moderation.active_suspensions(db))
        return club_counts(the_club.store), suspended

    counts, suspended = await anyio.to_thread.run_sync(read)
    hub = the_club.hub
    inbox = the_club.inbox
    return render(
        request,
        "operator.html",
        counts=counts,
        suspended=suspended,
        members_online=len([u for u, s in inbox.sockets.items() if s]) if inbox else 0,
        game_sockets=sum(len(conns) for conns in hub.connections.values()),
        watched_games=len([pk for pk, conns in hub.connections.items() if conns]),
        bot_waiting=hub.bots.queue.waiting(),
        bot_busy=hub.bots.queue.busy,
        errors=RECENT.latest(10),
        error_count=RECENT.count,
        mail_on=the_club.mailer is not None,
        process=f"{socket.gethostname()}:{os.getpid()}",
    )
