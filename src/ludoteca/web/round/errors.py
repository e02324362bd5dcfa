"""The round's own refusals; the club's refusals in general are
:mod:`ludoteca.web.kernel.errors` (named here too, for code written against this module)."""

from __future__ import annotations

from ludoteca.web.kernel.errors import SESSION_ENDED, ClubError, SessionEnded, socket_refusal

__all__ = ["SESSION_ENDED", "ClubError", "NewGameRefused", "SessionEnded", "socket_refusal"]


class NewGameRefused(ClubError):
    """A new game refused by a quota (:mod:`ludoteca.web.round.quotas`): the new-game form is
    shown again with the reason."""
