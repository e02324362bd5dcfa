"""Device cookies: a browser that has logged in to an account before is trusted with it.

The log-in limits stop guessing, but a lock on an account stops its owner too: a stranger
who spreads wrong passwords for someone's name over a few addresses would lock that name
for everyone, again and again. Following OWASP's *device cookies* advice, a successful
log-in (or registration) gives the browser a cookie that names no one: per account it
holds a random id and an HMAC of that id and the account's name under the club's secret
key. On the next log-in to that account the browser is a *trusted device*: only its own
failures count against it (:attr:`~ludoteca.web.infra.throttle.Limits.login_per_device`), and
failures from elsewhere, however many, do not lock it out. Browsers without such a cookie
share the account-wide and per-address limits, which still stop distributed guessing.
A trusted browser that fails too often becomes one more untrusted one until its failures
age out. Each successful log-in replaces the account's entry with a fresh id.

The cookie is HttpOnly and SameSite=Lax (Secure over HTTPS) and holds entries for at most
:data:`MAX_ENTRIES` accounts, the most recent last. Its path is the whole site, not just
``/login``, because registering (at ``/register``) adds an entry and must see the others.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

DEVICE_COOKIE = "ludoteca_device"
DEVICE_DAYS = 365
MAX_ENTRIES = 5
"""Accounts one browser is trusted with at once: a household's, say."""
_ENTRY = re.compile(r"^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$")


def _signature(secret: bytes, name_key: str, device_id: str) -> str:
    mac = hmac.new(secret, f"device:{name_key}:{device_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode().rstrip("=")


def _entries(cookie: str | None) -> list[tuple[str, str]]:
    if not cookie or len(cookie) > 64 * MAX_ENTRIES:
        return []
    found = (_ENTRY.match(part) for part in cookie.split("~")[:MAX_ENTRIES])
    return [(m.group(1), m.group(2)) for m in found if m]


def trusted_device(secret: bytes, name_key: str, cookie: str | None) -> str | None:
    """The device id this browser's cookie holds for account ``name_key``, if its signature
    is right; None for a browser without one (or with a forged or foreign one)."""
    for device_id, signature in _entries(cookie):
        if hmac.compare_digest(_signature(secret, name_key, device_id), signature):
            return device_id
    return None


def remember_device(secret: bytes, name_key: str, cookie: str | None) -> str:
    """The cookie after a successful log-in to ``name_key``: its entries for other accounts
    (the oldest dropped beyond :data:`MAX_ENTRIES`) and a fresh one for this account."""
    kept = [
        (device_id, signature)
        for device_id, signature in _entries(cookie)
        if not hmac.compare_digest(_signature(secret, name_key, device_id), signature)
    ]
    device_id = base64.urlsafe_b64encode(secrets.token_bytes(16)).decode().rstrip("=")
    kept.append((device_id, _signature(secret, name_key, device_id)))
    return "~".join(f"{d}.{s}" for d, s in kept[-MAX_ENTRIES:])
