"""What a client may send on a game socket or with a move: each message validated before
anything acts on it (:func:`validate_message`), and the ply a move answers (:func:`seen_ply`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ludoteca.core.messages import N_
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.flood import MAX_WS_MESSAGE

if TYPE_CHECKING:
    from ludoteca.web.infra.outbox import Connection
    from ludoteca.web.round.hub import Hub

MISSING_PLY = N_(
    "A move must say which position it answers: send 'ply', the move number of the position "
    "you saw (the 'ply' of the game's view). Reload the page if it does not."
)


def seen_ply(data: dict[str, Any], *, required: bool) -> int | None:
    """The ply of the position the client saw when it chose its move (or resignation).

    A move is only accepted at that ply, so a move sent twice, or chosen on a board that has
    changed since, is refused instead of being played on a position its sender never saw: in
    Hexagone the same player often moves several times in a row, and two moves without a
    ply, sent at once, were both accepted."""
    ply = data.get("ply")
    if ply is None:
        if required:
            raise ClubError(MISSING_PLY)
        return None
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise ClubError("'ply' must be a whole number, the move number of the position you saw.")
    return ply


@dataclass(frozen=True)
class MessageHandler:
    validate: Callable[[dict[str, Any]], None]
    handle: Callable[[Hub, Connection, dict[str, Any]], Awaitable[None]]


def validate_message(
    raw: str | None, extra: dict[str, MessageHandler] | None = None
) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise ClubError("A message must be a JSON object sent as text.")
    if len(raw) > MAX_WS_MESSAGE:
        raise ClubError("Message too long.")
    data = json_object(raw, N_("A message"))
    kind = data.get("type")
    extra = extra or {}
    if not isinstance(kind, str) or kind not in {"move", "resign", "ping", "refresh", *extra}:
        raise ClubError("Unknown message type {kind!r}.", kind=kind)
    if kind in extra:
        if not isinstance(data.get("csrf"), str):
            raise ClubError("The message has no security (CSRF) token; reload the page.")
        extra[kind].validate(data)
        return data
    if kind in {"move", "resign"} and not isinstance(data.get("csrf"), str):
        raise ClubError("The message has no security (CSRF) token; reload the page.")
    if kind == "move":
        if not isinstance(data.get("move"), str):
            raise ClubError("A move message needs 'move', the move in notation.")
        seen_ply(data, required=True)
    if kind == "resign":
        seen_ply(data, required=False)
    return data
