"""Accounts and sessions: argon2 password hashes, session cookies and CSRF tokens.

The session cookie holds a random token; the database holds only its SHA-256, so a leaked
database does not log anyone in. Cookies are HttpOnly and SameSite=Lax (Secure over HTTPS).

CSRF: every state-changing form, API request and websocket message carries a token that is
an HMAC of the browser's cookie token under the server's secret key. A page from another
site can neither read the cookie nor compute the token, so a forged request is refused. A
visitor who is not logged in gets a random ``anon`` cookie for the same purpose, so the
register and log-in forms are protected too.

Guessing is limited: :meth:`Accounts.log_in` and :meth:`Accounts.register` with an address
go through the shared :class:`~ludoteca.web.infra.throttle.Throttle` (per account and per address,
or per browser for one whose device cookie trusts it with the account: see
:mod:`ludoteca.web.accounts.devices`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Row, Select, bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import configure_mappers, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict, manager_of_class

from ludoteca.core.messages import Text
from ludoteca.web.accounts.devices import remember_device, trusted_device
from ludoteca.web.accounts.names import reserved, skeleton
from ludoteca.web.accounts.session_cache import SessionCache
from ludoteca.web.infra.store import Session, Store, User, utcnow
from ludoteca.web.infra.throttle import Throttle

SESSION_COOKIE = "ludoteca_session"
ANON_COOKIE = "ludoteca_anon"
SESSION_DAYS = 30
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,23}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
COMMON_PASSWORDS = frozenset(
    [
        "password",
        "password1",
        "12345678",
        "123456789",
        "1234567890",
        "qwertyui",
        "qwerty123",
        "iloveyou",
        "letmein1",
        "abcdefgh",
        "11111111",
        "00000000",
        "passw0rd",
        "trustno1",
        "sunshine",
        "football",
    ]
)

_hasher = PasswordHasher()


class AccountError(Exception):
    """A refusal to show the person as it is (taken name, weak or wrong password)."""

    def __init__(self, message: str, field: str | None = None, **fields: Any) -> None:
        self.message: str = Text.of(message, fields)
        super().__init__(str(self.message))
        self.field = field


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    name = name.strip()
    if not NAME_RE.match(name):
        raise AccountError(
            "A user name has 2 to 24 characters: letters, digits, '_', '.' or '-', "
            "starting with a letter or digit.",
            "name",
        )
    if reserved(name):
        raise AccountError(
            "The name {name!r} is kept for the club's own use; please choose another.",
            "name",
            name=name,
        )
    return name


def check_password(password: str, name: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AccountError(
            "That password is too weak: use at least {MIN_PASSWORD} characters.",
            "password",
            MIN_PASSWORD=MIN_PASSWORD,
        )
    if len(password) > MAX_PASSWORD:
        raise AccountError(
            "Passwords are at most {MAX_PASSWORD} characters.",
            "password",
            MAX_PASSWORD=MAX_PASSWORD,
        )
    lowered = password.lower()
    if lowered in COMMON_PASSWORDS or name.lower() in lowered or len(set(password)) < 4:
        raise AccountError(
            "That password is too weak: it is too common, too repetitive or contains your "
            "user name.",
            "password",
        )


_USERS, _SESSIONS = User.__table__, Session.__table__
SESSION_USER = (
    select(_USERS, _SESSIONS.c.expires)
    .join(_SESSIONS, _SESSIONS.c.user_id == _USERS.c.id)
    .where(_SESSIONS.c.token_hash == bindparam("token_hash"))
)
"""Whose session a token's hash names, and until when: every request and every move asks,
so the statement is built once (building it cost more than running it on SQLite)."""
SESSION_OWNER = select(_SESSIONS.c.user_id, _SESSIONS.c.expires).where(
    _SESSIONS.c.token_hash == bindparam("token_hash")
)
"""Whose session it is, without the user's row: what a move over a socket checks."""


@dataclass
class Accounts:
    store: Store
    secret: bytes
    throttle: Throttle | None = field(default=None, repr=False)
    on_session_closed: list[Callable[[str], None]] = field(default_factory=list, repr=False)
    """Called with the hash of a session's token when it is closed (the live hub closes
    that session's open sockets); may be called from any thread."""
    sessions: SessionCache = field(default_factory=SessionCache, repr=False)
    """The sessions read lately, for the requests that may trust one read a moment ago
    (:meth:`cached_session_user`)."""

    def __post_init__(self) -> None:
        if self.throttle is None:
            self.throttle = Throttle(self.store)

    # --- users ------------------------------------------------------------------------------
    def register(
        self,
        name: str,
        password: str,
        address: str | None = None,
        language: str | None = None,
    ) -> User:
        """Create an account, speaking ``language`` (the language of the pages it registered
        on: its e-mails are written in it from the start). With the client's ``address``
        the registrations from it are limited (raises
        :class:`~ludoteca.web.infra.throttle.TooManyAttempts`)."""
        if address is None:
            return self._register(name, password, language)
        assert self.throttle is not None
        rows = self.throttle.begin_register(address)
        ok = False
        try:
            user = self._register(name, password, language)
            ok = True
        finally:
            self.throttle.register_done(rows, ok)
        return user

    def _register(self, name: str, password: str, language: str | None = None) -> User:
        name = check_name(name)
        check_password(password, name)
        shape = skeleton(name)
        with self.store.session() as db:
            if db.scalar(select(User).where(User.name_key == name.lower())):
                raise AccountError(
                    "The name {name!r} is taken; please choose another.", "name", name=name
                )
            twin = db.scalar(select(User.name).where(User.name_skeleton == shape).limit(1))
            if twin is not None:
                raise AccountError(
                    "The name {name!r} looks too much like the member {other!r}; please "
                    "choose another.",
                    "name",
                    name=name,
                    other=twin,
                )
            user = User(
                name=name,
                name_key=name.lower(),
                name_skeleton=shape,
                password_hash=_hasher.hash(password),
                language=language,
            )
            db.add(user)
            try:
                db.commit()
            except IntegrityError:
                raise AccountError(
                    "The name {name!r} is taken; please choose another.", "name", name=name
                ) from None
            return user

    def log_in(
        self, name: str, password: str, address: str, device_cookie: str | None = None
    ) -> User:
        """:meth:`authenticate` within the limits on failures per account and per address,
        or per browser for one whose ``device_cookie`` is trusted with the account (see
        :mod:`ludoteca.web.accounts.devices`): during a lock-out even the right password is refused,
        without being checked."""
        assert self.throttle is not None
        key = name.strip().lower()[:64]
        device = trusted_device(self.secret, key, device_cookie)
        rows = self.throttle.begin_login(key, address, device)
        try:
            user = self.authenticate(name, password)
        except AccountError:
            self.throttle.login_failed(rows)
            raise
        except BaseException:
            self.throttle.forget(rows)
            raise
        self.throttle.login_succeeded(rows, key, address, device)
        return user

    def trust_device(self, user: User, device_cookie: str | None) -> str:
        """The device cookie for a browser that has just logged in as ``user`` (or
        registered): from now on it is trusted with that account."""
        return remember_device(self.secret, user.name_key, device_cookie)

    def authenticate(self, name: str, password: str) -> User:
        wrong = AccountError("Wrong user name or password.", "password")
        if len(password) > MAX_PASSWORD or len(name) > 64:
            raise wrong
        with self.store.session() as db:
            user = db.scalar(select(User).where(User.name_key == name.strip().lower()))
            if user is None:
                # Hash anyway so that timing does not tell which names exist.
                _hasher.hash(password)
                raise wrong
            try:
                _hasher.verify(user.password_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                raise wrong from None
            if _hasher.check_needs_rehash(user.password_hash):
                user.password_hash = _hasher.hash(password)
                db.commit()
            return user

    def set_password(self, user_id: int, password: str, keep_token: str | None = None) -> None:
        """Give the account a new password and close its sessions, all but the one whose
        token is ``keep_token`` (the browser that changed it): whoever knew the old password
        is logged out everywhere else."""
        with self.store.session() as db:
            user = db.get(User, user_id)
            if user is None:
                raise AccountError("There is no such account.")
            check_password(password, user.name)
            user.password_hash = _hasher.hash(password)
            kept = hash_token(keep_token) if keep_token else None
            closed = [
                h
                for h in db.scalars(select(Session.token_hash).where(Session.user_id == user_id))
                if h != kept
            ]
            if closed:
                db.execute(delete(Session).where(Session.token_hash.in_(closed)))
            db.commit()
        self.sessions.drop_user(user_id)
        for token_hash in closed:
            for hook in self.on_session_closed:
                hook(token_hash)

    def change_password(self, user: User, old: str, new: str, keep_token: str | None) -> None:
        """A signed-in member's new password, given their present one."""
        if len(old) > MAX_PASSWORD:
            raise AccountError("Your present password is not that one.", "old")
        with self.store.session() as db:
            stored = db.scalar(select(User.password_hash).where(User.id == user.id))
        try:
            _hasher.verify(stored or "", old)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise AccountError("Your present password is not that one.", "old") from None
        self.set_password(user.id, new, keep_token)

    def set_language(self, user_id: int, code: str) -> None:
        """Give a member who never had one the language of the page they logged in on (their
        e-mails are written in it), unless they chose one meanwhile."""
        with self.store.session() as db:
            db.execute(
                update(User)
                .where(User.id == user_id, User.language.is_(None))
                .values(language=code)
            )
            db.commit()
        self.forget_user(user_id)

    def forget_user(self, user_id: int) -> None:
        """The member's row changed (their language): requests read it afresh from now on."""
        self.sessions.drop_user(user_id)

    def user_by_name(self, name: str) -> User | None:
        with self.store.session() as db:
            return db.scalar(select(User).where(User.name_key == name.strip().lower()))

    # --- sessions -----------------------------------------------------------------------------
    def open_session(self, user: User) -> str:
        token = secrets.token_urlsafe(32)
        with self.store.session() as db:
            db.add(
                Session(
                    token_hash=hash_token(token),
                    user_id=user.id,
                    expires=utcnow() + timedelta(days=SESSION_DAYS),
                )
            )
            db.commit()
        return token

    def session_user(self, token: str | None) -> User | None:
        """The user a session cookie belongs to, or None. Read afresh on every call (a move
        is only taken while its session is open, whichever process closed it), in a session
        that only reads (no transaction around it): a playing page asks twice a move."""
        found = self.session_user_with(token, SESSION_USER)
        return None if found is None else found[0]

    def session_user_with(self, token: str | None, statement: Select) -> tuple[User, Row] | None:
        """:meth:`session_user` by ``statement``, :data:`SESSION_USER` with columns added
        (``add_columns``), and the row it read: what else a request needs of its member in
        the same round trip (a page, their bell's count)."""
        read_at = time.monotonic()
        found = self._open_session_row(statement, token)
        if found is None:
            return None
        assert token is not None
        columns = {column.name: found._mapping[column] for column in _USERS.c}
        self.sessions.put(hash_token(token), columns, found.expires, read_at)
        return _detached_user(columns), found

    def cached_session_user(self, token: str | None) -> User | None:
        """The member a session cookie belongs to as read for an earlier request of this
        process a moment ago (see :mod:`ludoteca.web.accounts.session_cache` for when that
        may be trusted), or None when there is no such recent read: then the caller reads
        it afresh (:meth:`session_user_with`), which keeps it for the next request."""
        if not token or len(token) > 128:
            return None
        columns = self.sessions.get(hash_token(token), utcnow())
        return None if columns is None else _detached_user(columns)

    def session_user_id(self, token: str | None) -> int | None:
        """The id of the user a session cookie belongs to, or None: :meth:`session_user`
        for a caller that already holds the user and only asks whether their session is
        still open (a move over a game's socket, read afresh at every move), without
        reading and building the user."""
        found = self._open_session_row(SESSION_OWNER, token)
        return None if found is None else int(found.user_id)

    def _open_session_row(self, statement: Select, token: str | None) -> Row | None:
        """The row ``statement`` reads for an open session's token, or None: no such
        session, or one that has expired (which is then removed, as log-out would)."""
        if not token or len(token) > 128:
            return None
        key = hash_token(token)
        with self.store.read_connection() as conn:  # a Core read: every request makes it
            found = conn.execute(statement, {"token_hash": key}).first()
        if found is None:
            return None
        if found.expires >= utcnow():
            return found
        self._remove_expired(key)
        return None

    def _remove_expired(self, key: str) -> None:
        self.sessions.drop(key)
        with self.store.session() as db:  # expired: removed, as log-out would
            db.execute(delete(Session).where(Session.token_hash == key))
            db.commit()

    def close_session(self, token: str | None) -> None:
        if not token:
            return
        token_hash = hash_token(token)
        with self.store.session() as db:
            db.execute(delete(Session).where(Session.token_hash == token_hash))
            db.commit()
        self.sessions.drop(token_hash)
        for hook in self.on_session_closed:
            hook(token_hash)

    def open_sessions(self, hashes: set[str]) -> set[str]:
        """Which of these sessions (by the hashes of their tokens) are still open."""
        wanted = sorted(hashes)
        found: set[str] = set()
        with self.store.session() as db:
            for start in range(0, len(wanted), 500):  # a bounded number of SQL parameters
                found.update(
                    db.scalars(
                        select(Session.token_hash).where(
                            Session.token_hash.in_(wanted[start : start + 500]),
                            Session.expires >= utcnow(),
                        )
                    )
                )
        return found

    # --- CSRF ---------------------------------------------------------------------------------
    def csrf_token(self, cookie_token: str) -> str:
        return hmac.new(self.secret, b"csrf:" + cookie_token.encode(), "sha256").hexdigest()

    def csrf_ok(self, cookie_token: str | None, supplied: object) -> bool:
        if not cookie_token or not isinstance(supplied, str) or len(supplied) != 64:
            return False
        return hmac.compare_digest(self.csrf_token(cookie_token), supplied)


_USER_CLASS = manager_of_class(User)


def _detached_user(columns: dict[str, Any]) -> User:
    """The same detached ``User`` a closed ORM session would hand back, without the ORM's
    query machinery: a new one for each request, so none changes another's. Made as the ORM
    makes the objects of the rows it loads (an instance whose attributes are filled in
    directly): its constructor's event per attribute cost more than the session read."""
    configure_mappers()  # at once unless a model was added since: the columns' handlers
    user = _USER_CLASS.new_instance()
    instance_dict(user).update(columns)
    make_transient_to_detached(user)
    return user
