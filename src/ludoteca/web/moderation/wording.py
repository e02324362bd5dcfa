"""The moderation log in words: each entry as a sentence in the reader's language.

Entries are stored as an action (``hide``, ``hide chat``, ``suspend``, …), a target
(``post 12 by bob``, ``chat line 3 in game 7``, ``user bob``) and a reason; printed side by
side they read "hide chat chat line 3 in game 7". Here each action has its own sentence,
with the numbers and names taken from the target, so the log says "hid chat line 3 in
game #7". An entry this module does not know is shown as stored.
"""

from __future__ import annotations

import re

from ludoteca.core.messages import N_, Text

_SENTENCES: dict[str, tuple[re.Pattern[str], str]] = {
    "hide": (re.compile(r"post (?P<post>\d+) by (?P<name>.+)"), N_("hid post {post} by {name}")),
    "unhide": (
        re.compile(r"post (?P<post>\d+) by (?P<name>.+)"),
        N_("showed post {post} by {name} again"),
    ),
    "dismiss": (
        re.compile(r"reports on post (?P<post>\d+)"),
        N_("dismissed the reports on post {post}"),
    ),
    "lock": (re.compile(r"thread (?P<thread>\d+)"), N_("locked thread {thread}")),
    "unlock": (re.compile(r"thread (?P<thread>\d+)"), N_("unlocked thread {thread}")),
    "suspend": (re.compile(r"user (?P<name>.+)"), N_("suspended {name}")),
    "unsuspend": (re.compile(r"user (?P<name>.+)"), N_("lifted the suspension of {name}")),
    "hide chat": (
        re.compile(r"chat line (?P<line>\d+) in game (?P<game>\d+)"),
        N_("hid chat line {line} in game #{game}"),
    ),
    "dismiss chat": (
        re.compile(r"chat line (?P<line>\d+)"),
        N_("dismissed the reports on chat line {line}"),
    ),
}
_ROLES = {
    # Granted and revoked by ``ludoteca admin``: the reason field holds the role.
    "grant": N_("made {name} a moderator"),
    "revoke": N_("took the moderator role from {name}"),
}
_USER = re.compile(r"user (?P<name>.+)")
_SUSPENSION_REASON = re.compile(r"(?P<hours>\d+) h: (?P<reason>.*)", re.S)


def describe(action: str, target: str, reason: str | None) -> Text | str:
    """The entry as a sentence (a :class:`Text` to translate), its reason after a colon."""
    if action in _ROLES and reason == "moderator" and (user := _USER.fullmatch(target)):
        return Text(_ROLES[action], user.groupdict())
    known = _SENTENCES.get(action)
    match = known[0].fullmatch(target) if known else None
    if known is None or match is None:
        plain = f"{action} {target}"
        return f"{plain}: {reason}" if reason else plain
    what = Text(known[1], match.groupdict())
    if action == "suspend" and reason and (hours := _SUSPENSION_REASON.fullmatch(reason)):
        what = Text(N_("suspended {name} for {hours} h"), match.groupdict() | hours.groupdict())
        reason = hours["reason"]
    if not reason:
        return what
    return Text(N_("{what}: {reason}"), {"what": what, "reason": reason})
