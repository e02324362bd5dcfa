"""Refusals the club gives a person: a message and an HTTP status, raised anywhere in a
request (by every feature, and the infrastructure too) and turned into a page or JSON by the
app's handler."""

from __future__ import annotations

import json
from typing import Any

from ludoteca.core.messages import N_, Text
from ludoteca.web.i18n.catalogs import language


class ClubError(Exception):
    """A request the club refuses, with a message for the person and an HTTP status.

    ``message`` is an English template whose ``{name}`` fields come from ``fields``;
    ``text`` keeps them apart so the page shows the refusal in the reader's language, and
    ``message`` is the English text (logs, the command line, tests)."""

    def __init__(
        self,
        message: str | Text,
        status: int = 400,
        *,
        changed: bool = False,
        retry_after: int | None = None,
        **fields: Any,
    ) -> None:
        self.text = Text.of(message, fields)
        self.message: str = self.text
        super().__init__(str(self.text))
        self.status = status
        self.changed = changed
        """The refusal itself changed the game (it ended on time): tell its viewers."""
        self.retry_after = retry_after
        """For a refusal by a rate (HTTP 429): seconds until the request would pass."""


SESSION_ENDED = N_("Your session has ended (you logged out, or it expired); reload the page.")


class SessionEnded(ClubError):
    """The session a request was made in is no longer open (logged out in any process, or
    expired)."""

    def __init__(self) -> None:
        super().__init__(SESSION_ENDED, 401)


def socket_refusal(
    message: str, lang: str, about: str | None = None, retry_after: int | None = None
) -> str:
    """A refusal sent over a websocket (``{"type": "error", "message"}``) in the language
    ``lang`` of the page that opened it; ``about`` names the feature whose message it
    answers (``chat``), so that the page shows it there; ``retry_after`` the seconds a limit
    asks to wait."""
    text = language(lang).text(message)
    payload: dict[str, object] = {"type": "error", "message": text}
    if about:
        payload["about"] = about
    if retry_after:
        payload["retry_after"] = retry_after
    return json.dumps(payload, ensure_ascii=False)
