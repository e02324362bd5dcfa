"""Limits on guessing passwords and on mass registration, kept in the database.

Every server process shares the ``login_attempts`` table, so the limits hold however a load
balancer spreads the requests. An attempt is written *before* the password is checked and
the rows are counted after that write: of many simultaneous attempts (from one process or
several) only as many as the limit allows go on to be checked; the rest are refused
without hashing anything. A refused attempt removes its own row, so hammering a locked
account does not keep it locked for ever; a failed one keeps it; a successful log-in clears
that account's failures from its address but not those of its address, which belong to other
accounts too.

Failures at one account are counted twice. From one address the limit is tight (5): that is
one guesser. Over all addresses it is loose (30): that is a guesser with many machines. So a
stranger who types wrong passwords at someone's name locks that name only for their own
address, and its owner, elsewhere, still gets in. A spread-out attack locks the name for
every browser that has not logged in to it before, but not for the owner's own: a browser
with a device cookie for the account (:mod:`ludoteca.web.accounts.devices`) is counted by itself
alone (5 failures), whatever others do at the account or at its address. Past its own limit
it counts as one more stranger until its failures age out.

The keys are ``login:account:NAME``, ``login:pair:NAME ADDR``, ``login:address:ADDR``,
``login:device:ID`` and ``register:address:ADDR``; an IPv6 address counts by its /64
network, since one machine easily holds a whole one.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from ludoteca.core.messages import N_, Text
from ludoteca.web.infra.store import LoginAttempt, Store, utcnow

PRUNE_EVERY = 60.0
"""Seconds between deletions of rows too old to count, per process."""


@dataclass(frozen=True)
class Limit:
    """At most ``count`` events in any ``minutes`` minutes."""

    count: int
    minutes: int

    @property
    def window(self) -> timedelta:
        return timedelta(minutes=self.minutes)


@dataclass(frozen=True)
class Limits:
    login_per_account_from_address: Limit = Limit(5, 15)
    login_per_account: Limit = Limit(30, 15)
    """Failures at an account from all browsers without its device cookie."""
    login_per_address: Limit = Limit(20, 15)
    login_per_device: Limit = Limit(5, 15)
    """Failures at an account from one browser with its device cookie."""
    register_per_address: Limit = Limit(10, 60)

    @property
    def longest(self) -> timedelta:
        return max(
            limit.window
            for limit in (
                self.login_per_account_from_address,
                self.login_per_account,
                self.login_per_address,
                self.login_per_device,
                self.register_per_address,
            )
        )


class TooManyAttempts(Exception):
    """A refusal because a limit is reached; ``retry_at`` is when the next try may pass."""

    def __init__(self, message: Text, retry_at: datetime) -> None:
        super().__init__(str(message))
        self.text = message
        self.message = str(message)
        self.retry_at = retry_at

    @property
    def retry_after(self) -> int:
        """Whole seconds to wait, for the ``Retry-After`` header."""
        return max(1, math.ceil((self.retry_at - utcnow()).total_seconds()))


def address_key(host: str | None) -> str:
    """The client address as counted: IPv4 as is, IPv6 by its /64 network."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64].replace("\x00", "?")
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def request_address(request) -> str:
    """The counted address of a request's client. Behind a load balancer this is the
    address it forwards, if uvicorn trusts it (``--forwarded-allow-ips``); otherwise the
    balancer's own address, which would put every client under one limit."""
    client = getattr(request, "client", None)
    return address_key(client.host if client is not None else None)


def pair_key(name_key: str, address: str) -> str:
    """The key of failures at one account from one address (names are at most 32 characters,
    and the key fits the column whatever was typed)."""
    return f"login:pair:{name_key[:32]} {address[:50]}"


def device_key(device: str) -> str:
    """The key of failures from one trusted browser (its device cookie's id)."""
    return f"login:device:{device[:64]}"


def when(moment: datetime) -> Text:
    """A refusal's "try again" time as people read it: clock time and minutes from now."""
    minutes = max(1, math.ceil((moment - utcnow()).total_seconds() / 60))
    if minutes == 1:
        return Text("after {time:%H:%M} UTC (in 1 minute)", {"time": moment})
    return Text(
        "after {time:%H:%M} UTC (in {minutes} minutes)", {"time": moment, "minutes": minutes}
    )


class Throttle:
    """The limits of one club, counted in its database: each ``begin_*`` writes the attempt
    and refuses it (:class:`TooManyAttempts`) when its keys are already at their limit."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self._pruned = 0.0
        self._prune_lock = threading.Lock()

    # --- log-in ----------------------------------------------------------------------------
    def begin_login(self, name_key: str, address: str, device: str | None = None) -> list[int]:
        """Count this log-in attempt against its account and its address, or refuse it;
        from a trusted browser (``device``, the id its device cookie holds for this account)
        against that browser alone, while it is within its own limit.

        Returns the ids of the rows written, for :meth:`login_failed` (keep them) or
        :meth:`login_succeeded` (drop them)."""
        if device is not None:
            check = (
                device_key(device),
                self.limits.login_per_device,
                N_("Too many failed log-ins for this account from this browser"),
            )
            try:
                return self._begin([check])
            except TooManyAttempts:
                pass  # this browser has used up its trust for now: it is one more stranger
        checks = [
            (
                pair_key(name_key, address),
                self.limits.login_per_account_from_address,
                N_("Too many failed log-ins for this account from your address"),
            ),
            (
                f"login:account:{name_key[:64]}",
                self.limits.login_per_account,
                N_("Too many failed log-ins for this account"),
            ),
            (
                f"login:address:{address}",
                self.limits.login_per_address,
                N_("Too many failed log-ins from your address"),
            ),
        ]
        return self._begin(checks)

    def login_failed(self, rows: list[int]) -> None:
        """The password was wrong: the rows stay and count for the window."""
        self._prune()

    def login_succeeded(
        self, rows: list[int], name_key: str, address: str, device: str | None = None
    ) -> None:
        """Drop this attempt and the account's failures from this browser, if trusted, or
        else from this address (the owner's own typing mistakes). The address's failures at
        other accounts stay, and so do the account's failures from elsewhere, which may be
        someone else's guesses; so do its failures from this address when a trusted browser
        logs in there, since its own were not counted with them."""
        pair = pair_key(name_key, address)
        mine = [device_key(device)] if device else []
        with self.store.session() as db:
            counted = db.scalars(select(LoginAttempt.key).where(LoginAttempt.id.in_(rows)))
            if pair in set(counted):  # this attempt went the untrusted way
                mine.append(pair)
            db.execute(delete(LoginAttempt).where(LoginAttempt.id.in_(rows)))
            db.execute(delete(LoginAttempt).where(LoginAttempt.key.in_(mine)))
            db.commit()

    # --- registration ------------------------------------------------------------------------
    def begin_register(self, address: str) -> list[int]:
        return self._begin(
            [
                (
                    f"register:address:{address}",
                    self.limits.register_per_address,
                    N_("Too many accounts were registered from your address"),
                )
            ]
        )

    def register_done(self, rows: list[int], ok: bool) -> None:
        """A registration that failed (name taken, weak password) does not count."""
        if not ok:
            self.forget(rows)
        self._prune()

    def forget(self, rows: list[int]) -> None:
        with self.store.session() as db:
            db.execute(delete(LoginAttempt).where(LoginAttempt.id.in_(rows)))
            db.commit()

    # --- the counting ------------------------------------------------------------------------
    def _begin(self, checks: list[tuple[str, Limit, str]]) -> list[int]:
        now = utcnow()
        with self.store.session() as db:
            mine = [LoginAttempt(key=key, created=now) for key, _, _ in checks]
            db.add_all(mine)
            db.commit()
            ids = [row.id for row in mine]
            for key, limit, message in checks:
                times = db.scalars(
                    select(LoginAttempt.created)
                    .where(
                        LoginAttempt.key == key,
                        LoginAttempt.created > now - limit.window,
                        LoginAttempt.id.not_in(ids),
                    )
                    .order_by(LoginAttempt.created)
                ).all()
                if len(times) >= limit.count:
                    db.execute(delete(LoginAttempt).where(LoginAttempt.id.in_(ids)))
                    db.commit()
                    # The attempt may pass once enough of the counted ones have aged out.
                    retry_at = times[len(times) - limit.count] + limit.window
                    raise TooManyAttempts(
                        Text(
                            "{refusal}: try again {when}.",
                            {"refusal": Text(message), "when": when(retry_at)},
                        ),
                        retry_at,
                    )
        return ids

    def _prune(self) -> None:
        """Delete rows too old to count, at most once a minute per process."""
        with self._prune_lock:
            if time.monotonic() - self._pruned < PRUNE_EVERY:
                return
            self._pruned = time.monotonic()
        with self.store.session() as db:
            db.execute(
                delete(LoginAttempt).where(LoginAttempt.created < utcnow() - self.limits.longest)
            )
            db.commit()
