"""The signed links the club's e-mails carry: unsubscribing, confirming an address and
resetting a password. Each is an ``itsdangerous`` token (HMAC under the club's secret key,
with the moment it was made) that names exactly what it may do, and dies:

- after a time (:data:`UNSUBSCRIBE_DAYS`, :data:`CONFIRM_HOURS`, :data:`RESET_MINUTES`);
- when what it was made for has changed: an unsubscribe link names the subscription
  (``mail_epoch``, raised on re-subscribing), a confirmation link the address it confirms,
  a reset link the password it replaces (so it works once).

Each kind has its own salt, so one kind of token is never taken for another.
"""

from __future__ import annotations

import hashlib
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from ludoteca.web.notify.models import SETTINGS

UNSUBSCRIBE_DAYS = 60
CONFIRM_HOURS = 48
RESET_MINUTES = 60
MAX_TOKEN = 400
"""Longer tokens are not read: none of ours is."""


class LinkRefused(Exception):
    """A link that is forged, malformed, for something else, or too old (``expired``)."""

    def __init__(self, expired: bool = False) -> None:
        super().__init__("expired" if expired else "invalid")
        self.expired = expired


def _serializer(secret: bytes, kind: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=f"ludoteca-{kind}")


def make(secret: bytes, kind: str, payload: list[Any]) -> str:
    return _serializer(secret, kind).dumps(payload)


def read(secret: bytes, kind: str, token: str, max_age: int) -> list[Any]:
    """The payload of a token of ``kind`` at most ``max_age`` seconds old."""
    if len(token) > MAX_TOKEN:
        raise LinkRefused()
    try:
        payload = _serializer(secret, kind).loads(token, max_age=max_age)
    except SignatureExpired:
        raise LinkRefused(expired=True) from None
    except BadSignature:
        raise LinkRefused() from None
    if not isinstance(payload, list):
        raise LinkRefused()
    return payload


def password_mark(password_hash: str) -> str:
    """A short mark of the stored password hash: a reset link carries it, so the link stops
    working once the password has changed (by it or otherwise)."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


def unsubscribe_token(secret: bytes, user_id: int, setting: str, epoch: int) -> str:
    return make(secret, "unsubscribe", [user_id, setting, epoch])


def read_unsubscribe(secret: bytes, token: str) -> tuple[int, str, int]:
    payload = read(secret, "unsubscribe", token, UNSUBSCRIBE_DAYS * 86400)
    match payload:
        case [int(user_id), str(setting), int(epoch)] if setting in SETTINGS:
            return user_id, setting, epoch
    raise LinkRefused()


def address_mark(address: str) -> str:
    """A short mark of an address: a confirmation link carries it (not the address, which
    would make the link long), so it confirms that address and no later one."""
    return hashlib.sha256(address.lower().encode()).hexdigest()[:16]


def confirm_token(secret: bytes, user_id: int, address: str) -> str:
    return make(secret, "confirm", [user_id, address_mark(address)])


def read_confirm(secret: bytes, token: str) -> tuple[int, str]:
    """The account and the mark of the address (:func:`address_mark`) a link confirms."""
    payload = read(secret, "confirm", token, CONFIRM_HOURS * 3600)
    match payload:
        case [int(user_id), str(mark)]:
            return user_id, mark
    raise LinkRefused()


def reset_token(secret: bytes, user_id: int, password_hash: str) -> str:
    return make(secret, "reset", [user_id, password_mark(password_hash)])


def read_reset(secret: bytes, token: str) -> tuple[int, str]:
    payload = read(secret, "reset", token, RESET_MINUTES * 60)
    match payload:
        case [int(user_id), str(mark)]:
            return user_id, mark
    raise LinkRefused()
