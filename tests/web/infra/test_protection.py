"""Protection against guessing, flooding and prying, on a real server with the club's limits.

Log-ins are limited per account and per address, registrations per address, all counted in
the database; the client's address comes from ``X-Forwarded-For``, which the test server
trusts because the tests connect from 127.0.0.1 (as a load balancer on the same machine
would). Websocket connections are limited in message size and rate, request bodies in size,
and no failure shows a visitor anything of the server's insides.
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import threading
import time
from datetime import timedelta

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ludoteca.cli.commands.serve import WS_MAX_SIZE
from ludoteca.web.accounts.devices import (
    DEVICE_COOKIE,
    MAX_ENTRIES,
    remember_device,
    trusted_device,
)
from ludoteca.web.accounts.service import SESSION_COOKIE
from ludoteca.web.infra.store import LoginAttempt, Store, utcnow
from ludoteca.web.infra.throttle import Limit, Limits, Throttle, TooManyAttempts, address_key
from ludoteca.web.round.flood import (
    MAX_WS_MESSAGE,
    WS_CONNECTIONS_PER_ADDRESS,
    WS_MESSAGES_PER_SECOND,
)
from tests.web.helpers import PASSWORD, Server, create_game, csrf_of, join, register

LIMITS = Limits()
_names = itertools.count(1)
_addresses = itertools.count(1)
LEAKS = re.compile(
    r"Traceback|\w+Error\b|\w*Exception|sqlite|sqlalchemy|psycopg|File \"|\.py\b|"
    r"line \d+|SELECT |no such table"
)
"""What a visitor must never see: exception names, tracebacks, the database's words."""


def new_address() -> str:
    """A fresh documentation address (RFC 5737) for each test, so limits do not mix."""
    n = next(_addresses)
    return f"203.0.113.{n}" if n < 250 else f"198.51.100.{n - 249}"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("protected")
    srv = Server(
        f"sqlite:///{tmp / 'club.sqlite3'}", log=tmp / "server.log", options=("--club-limits",)
    ).start()
    yield srv
    srv.kill()


def client_from(server: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=20, headers={"X-Forwarded-For": address})


def member(server: Server) -> str:
    """A registered user name (registered from an address of its own)."""
    name = f"guard{next(_names)}"
    with client_from(server, new_address()) as c:
        assert register(c, name).status_code == 303
    return name


class LoginForm:
    """The log-in form as one browser at one address submits it."""

    def __init__(self, server: Server, address: str) -> None:
        self.client = client_from(server, address)
        self.csrf = csrf_of(self.client.get("/login").text)

    def submit(self, name: str, password: str, address: str | None = None) -> httpx.Response:
        """Log in (from ``address``, if given: the browser carried elsewhere)."""
        headers = {"X-Forwarded-For": address} if address else None
        return self.client.post(
            "/login",
            data={"name": name, "password": password, "csrf": self.csrf, "next": "/"},
            headers=headers,
            follow_redirects=False,
        )

    def log_out(self) -> None:
        """End the session (the browser keeps its other cookies) and reload the form."""
        self.client.post("/logout", data={"csrf": csrf_of(self.client.get("/").text)})
        assert SESSION_COOKIE not in self.client.cookies
        self.csrf = csrf_of(self.client.get("/login").text)


def lock_for_strangers(server: Server, name: str) -> None:
    """Wrong guesses at ``name`` spread over addresses, each address within its own limit,
    until the account-wide limit is reached (30 guesses from 6 addresses)."""
    per_address = LIMITS.login_per_account_from_address.count
    total = LIMITS.login_per_account.count
    for start in range(0, total, per_address):
        form = LoginForm(server, new_address())
        for _ in range(min(per_address, total - start)):
            assert form.submit(name, "a stranger's guess").status_code == 400


def refusal(r: httpx.Response) -> str:
    match = re.search(r'<p class="error" role="alert">([^<]*)</p>', r.text)
    assert match, r.text
    return match.group(1)


def test_failed_logins_lock_the_account_from_that_address_even_with_the_right_password(club):
    name = member(club)
    address = new_address()
    guesser = LoginForm(club, address)
    for _ in range(LIMITS.login_per_account_from_address.count):
        r = guesser.submit(name, "wrong password 1")
        assert r.status_code == 400 and "Wrong user name or password" in refusal(r)
    r = guesser.submit(name, "wrong password 2")
    assert r.status_code == 429
    message = refusal(r)
    assert message.startswith(
        "Too many failed log-ins for this account from your address: try again after "
    )
    assert re.search(r"after \d\d:\d\d UTC \(in 1[45] minutes\)", message), message
    assert 14 * 60 < int(r.headers["Retry-After"]) <= 15 * 60
    # From that address even the right password waits; no session is opened.
    r = LoginForm(club, address).submit(name, PASSWORD)
    assert r.status_code == 429 and "for this account" in refusal(r)
    assert "ludoteca_session" not in r.cookies
    # A stranger's guessing does not lock the owner out: from elsewhere they log in.
    assert LoginForm(club, new_address()).submit(name, PASSWORD).status_code == 303
    # Other accounts are not affected, even from the guesser's address.
    other = member(club)
    assert guesser.submit(other, PASSWORD).status_code == 303


def test_guesses_spread_over_many_addresses_lock_the_account_for_strangers(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'limits.sqlite3'}")
    throttle = Throttle(store)
    limit = LIMITS.login_per_account
    assert limit.count > LIMITS.login_per_account_from_address.count
    for i in range(limit.count):  # one guess from each of many machines
        throttle.login_failed(throttle.begin_login("yve", f"192.0.2.{i + 1}"))
    with pytest.raises(TooManyAttempts) as refused:
        throttle.begin_login("yve", "198.51.100.7")  # a new address: the owner, perhaps
    assert refused.value.message.startswith("Too many failed log-ins for this account: ")
    # A browser trusted with the account (its device cookie's id) is counted by itself,
    # and its success at 192.0.2.2 leaves the strangers' failures from there counted.
    rows = throttle.begin_login("yve", "192.0.2.2", "dev1")
    throttle.login_succeeded(rows, "yve", "192.0.2.2", "dev1")
    # A success from one address clears only that address's failures at the account.
    throttle2 = Throttle(store, Limits(login_per_account=Limit(limit.count + 5, 15)))
    rows = throttle2.begin_login("yve", "192.0.2.1")
    throttle2.login_succeeded(rows, "yve", "192.0.2.1")
    with store.session() as db:
        keys = [row.key for row in db.query(LoginAttempt)]
    assert keys.count("login:account:yve") == limit.count  # the others' guesses still count
    assert "login:pair:yve 192.0.2.1" not in keys
    assert "login:pair:yve 192.0.2.2" in keys
    assert not any(key.startswith("login:device:") for key in keys)
    store.dispose()


def test_a_browser_that_logged_in_before_is_not_locked_out_by_guesses_from_elsewhere(club):
    name = member(club)
    home = new_address()
    owner = LoginForm(club, home)
    r = owner.submit(name, PASSWORD)
    assert r.status_code == 303
    cookies = r.headers.get_list("set-cookie")
    owner.log_out()
    lock_for_strangers(club, name)
    # Every browser the account does not know is locked out, even with the right password,
    # even at the owner's address: distributed guessing is stopped.
    for address in (new_address(), home):
        r = LoginForm(club, address).submit(name, PASSWORD)
        assert r.status_code == 429
        assert refusal(r).startswith("Too many failed log-ins for this account: try again after")
    # The owner's browser is not, at home or carried to a guesser's address.
    assert owner.submit(name, PASSWORD).status_code == 303
    owner.log_out()
    guesser = LoginForm(club, new_address())
    for _ in range(LIMITS.login_per_account_from_address.count):
        guesser.submit(name, "guessing on")
    assert owner.submit(name, PASSWORD, address=guesser_address(guesser)).status_code == 303
    # What trusts the browser: an HttpOnly cookie that does not name the account.
    device = next(c for c in cookies if c.startswith(DEVICE_COOKIE + "="))
    assert "HttpOnly" in device and "samesite=lax" in device.lower() and name not in device


def guesser_address(form: LoginForm) -> str:
    return form.client.headers["X-Forwarded-For"]


def tampered(entry: str) -> str:
    """A device cookie's entry with its signature changed in one character."""
    last = "A" if entry[-1] != "A" else "B"
    return entry[:-1] + last


def test_a_trusted_browser_is_trusted_with_its_own_accounts_and_within_its_own_limit(club):
    other = member(club)
    browser = LoginForm(club, new_address())
    name = f"guard{next(_names)}"
    # One browser, two accounts, one registered there and one logged in to: both trusted.
    assert register(browser.client, name).status_code == 303
    browser.log_out()
    assert browser.submit(other, PASSWORD).status_code == 303
    browser.log_out()
    elsewhere = LoginForm(club, new_address())
    assert elsewhere.submit(other, PASSWORD).status_code == 303  # trusted with `other` only
    elsewhere.log_out()
    forged = LoginForm(club, new_address())
    entries = browser.client.cookies[DEVICE_COOKIE].split("~")
    assert len(entries) == 2  # one per account, naming neither
    forged.client.cookies.set(DEVICE_COOKIE, "~".join(tampered(e) for e in entries))
    lock_for_strangers(club, name)
    for stranger in (elsewhere, forged):
        r = stranger.submit(name, PASSWORD)
        assert r.status_code == 429, r.text
    assert browser.submit(name, PASSWORD).status_code == 303
    browser.log_out()
    # The trusted browser's own failures are limited too; past that it is a stranger.
    for _ in range(LIMITS.login_per_device.count):
        assert browser.submit(name, "my own typo").status_code == 400
    r = browser.submit(name, PASSWORD)
    assert r.status_code == 429 and "for this account" in refusal(r)
    assert browser.submit(other, PASSWORD).status_code == 303  # its other account is fine


def test_a_device_cookie_keeps_a_few_accounts_and_a_fresh_id_at_each_log_in():
    secret, other_secret = b"k" * 32, b"j" * 32
    cookie = None
    ids = []
    for n in range(MAX_ENTRIES + 1):
        cookie = remember_device(secret, f"acct{n}", cookie)
        ids.append(trusted_device(secret, f"acct{n}", cookie))
    assert len(cookie.split("~")) == MAX_ENTRIES and "acct" not in cookie
    assert trusted_device(secret, "acct0", cookie) is None  # the oldest made room
    assert [trusted_device(secret, f"acct{n}", cookie) for n in range(1, 6)] == ids[1:]
    assert trusted_device(secret, "nobody", cookie) is None
    assert trusted_device(other_secret, "acct3", cookie) is None  # another club's key
    again = remember_device(secret, "acct3", cookie)
    assert trusted_device(secret, "acct3", again) not in (None, ids[3])  # a fresh id
    assert len(again.split("~")) == MAX_ENTRIES  # replaced, not added
    for junk in ("", "x" * 5000, "a.b~c.d", "\x00"):
        assert trusted_device(secret, "acct3", junk) is None


def test_failed_logins_from_one_address_are_limited_across_accounts(club):
    name = member(club)
    address = new_address()
    form = LoginForm(club, address)
    limit = LIMITS.login_per_address.count
    for i in range(limit - 1):  # one wrong guess each at many names: no account is locked
        assert form.submit(f"nobody{i}x{next(_names)}", "guess guess").status_code == 400
    # A success from the address does not wipe the failures it made for other accounts.
    assert form.submit(name, PASSWORD).status_code == 303
    form = LoginForm(club, address)
    assert form.submit(f"nobody-last{next(_names)}", "guess guess").status_code == 400
    r = form.submit(name, PASSWORD)
    assert r.status_code == 429
    assert refusal(r).startswith("Too many failed log-ins from your address: try again after")
    # The same account from another address is welcome.
    assert LoginForm(club, new_address()).submit(name, PASSWORD).status_code == 303


def test_simultaneous_guesses_get_no_more_tries_than_the_limit(club):
    name = member(club)
    address = new_address()
    forms = [LoginForm(club, address) for _ in range(12)]
    barrier = threading.Barrier(len(forms), timeout=30)
    codes: list[int] = []

    def guess(form: LoginForm) -> None:
        barrier.wait()
        codes.append(form.submit(name, "all at once").status_code)

    threads = [threading.Thread(target=guess, args=(f,)) for f in forms]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    limit = LIMITS.login_per_account_from_address.count
    assert len(codes) == len(forms) and set(codes) <= {400, 429}
    checked = codes.count(400)
    assert 1 <= checked <= limit
    # Every checked guess was counted: the account locks after exactly the rest of the limit.
    form, more = LoginForm(club, address), 0
    while (r := form.submit(name, "one by one")).status_code == 400:
        more += 1
    assert r.status_code == 429 and checked + more == limit


def test_registrations_from_one_address_are_limited(club):
    address = new_address()
    with client_from(club, address) as c:
        # A refused registration (weak password) does not count.
        r = register(c, f"reg{next(_names)}", password="short")
        assert r.status_code == 400
        for _ in range(LIMITS.register_per_address.count):
            assert register(c, f"reg{next(_names)}").status_code == 303
            c.cookies.clear()
        r = register(c, f"reg{next(_names)}")
        assert r.status_code == 429, r.text
        assert refusal(r).startswith(
            "Too many accounts were registered from your address: try again after"
        )
        assert int(r.headers["Retry-After"]) > 50 * 60
    with client_from(club, new_address()) as c:
        assert register(c, f"reg{next(_names)}").status_code == 303


def test_attempts_are_counted_in_the_database_and_old_ones_pruned(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'limits.sqlite3'}")
    throttle = Throttle(store)
    limit = LIMITS.login_per_account_from_address
    pair = "login:pair:zed 192.0.2.9"
    with store.session() as db:  # failures from long ago count for nothing
        old = utcnow() - timedelta(hours=2)
        db.add_all(LoginAttempt(key=pair, created=old) for _ in range(9))
        db.commit()
    for _ in range(limit.count):
        throttle.login_failed(throttle.begin_login("zed", "192.0.2.9"))
    with pytest.raises(TooManyAttempts) as refused:
        throttle.begin_login("zed", "192.0.2.9")
    assert timedelta(minutes=14) < refused.value.retry_at - utcnow() <= limit.window
    with store.session() as db:
        keys = [row.key for row in db.query(LoginAttempt)]
    assert keys.count(pair) == limit.count  # pruned: the old nine are gone
    assert keys.count("login:account:zed") == limit.count
    assert keys.count("login:address:192.0.2.9") == limit.count  # a refused attempt: no row
    store.dispose()


def test_addresses_are_counted_as_people_hold_them():
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    # One IPv6 machine holds a whole /64: it counts as one address.
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::5") != address_key("2001:db8:1:3::5")


# --- websockets -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def game(club):
    a, b = (client_from(club, "192.0.2.2") for _ in range(2))
    register(a, f"wsg{next(_names)}")
    register(b, f"wsg{next(_names)}")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    join(b, pk)
    return pk


def open_socket(server: Server, pk: int):
    return connect(f"ws://127.0.0.1:{server.port}/ws/games/{pk}", open_timeout=10)


def until_closed(ws) -> tuple[list[dict], int | None]:
    """Every message until the server closes the connection, and its close code."""
    seen = []
    try:
        while True:
            seen.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None


def test_a_flood_of_messages_is_refused_and_the_connection_closed(club, game):
    with open_socket(club, game) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for _ in range(WS_MESSAGES_PER_SECOND * 3):
            try:
                ws.send(json.dumps({"type": "ping"}))
            except ConnectionClosed:
                break
        seen, code = until_closed(ws)
    assert code == 1008
    pongs = [m for m in seen if m["type"] == "pong"]
    assert len(pongs) == WS_MESSAGES_PER_SECOND
    assert seen[-1] == {
        "type": "error",
        "message": f"Too many messages: at most {WS_MESSAGES_PER_SECOND} a second.",
    }


def test_a_steady_client_is_never_cut_off(club, game):
    import time

    with open_socket(club, game) as ws:
        ws.recv(timeout=10)
        for _ in range(WS_MESSAGES_PER_SECOND * 2):
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
            time.sleep(1.2 / WS_MESSAGES_PER_SECOND)


def test_one_address_holds_a_bounded_number_of_connections(club, game):
    address = new_address()
    url = f"ws://127.0.0.1:{club.port}/ws/games/{game}"

    def from_address(where: str):
        return connect(url, open_timeout=10, additional_headers={"X-Forwarded-For": where})

    held = []
    try:
        for _ in range(WS_CONNECTIONS_PER_ADDRESS):
            held.append(from_address(address))
            assert json.loads(held[-1].recv(timeout=10))["type"] == "state"
        with from_address(address) as extra:
            seen, code = until_closed(extra)
        assert code == 1008 and len(seen) == 1
        assert seen[0]["message"].startswith("Too many open game pages from your address")
        with from_address(new_address()) as elsewhere:  # other addresses are not affected
            assert json.loads(elsewhere.recv(timeout=10))["type"] == "state"
        held.pop().close()  # a closed page frees its place
        for _ in range(50):
            with from_address(address) as again:
                first = json.loads(again.recv(timeout=10))
            if first["type"] == "state":
                break
            time.sleep(0.1)  # the server may not have seen the close yet
        assert first["type"] == "state"
    finally:
        for ws in held:
            ws.close()


def test_oversized_and_binary_messages_are_refused(club, game):
    with open_socket(club, game) as ws:
        ws.recv(timeout=10)
        ws.send("x" * (MAX_WS_MESSAGE + 1))
        assert json.loads(ws.recv(timeout=10)) == {"type": "error", "message": "Message too long."}
        ws.send(b'{"type": "ping"}')
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and "sent as text" in reply["message"]
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"
    with open_socket(club, game) as ws:
        ws.recv(timeout=10)
        ws.send("x" * (WS_MAX_SIZE + 1))  # over uvicorn's frame limit: closed unread
        _, code = until_closed(ws)
    assert code == 1009


def test_request_bodies_are_bounded(club, game):
    from ludoteca.web.middleware import MAX_BODY

    with client_from(club, new_address()) as c:
        big = b'{"move": "' + b"a" * MAX_BODY + b'"}'
        r = c.post(f"/api/games/{game}/move", content=big)
        assert r.status_code == 413 and "too large" in r.text

        def chunks():  # no Content-Length: counted as it streams
            for _ in range(MAX_BODY // 1024 + 2):
                yield b"a" * 1024

        form = {"Content-Type": "application/x-www-form-urlencoded"}
        r = c.post("/login", content=chunks(), headers=form)
        assert r.status_code == 413 and "too large" in r.text


# --- failures show nothing ----------------------------------------------------------------------
def test_an_internal_failure_shows_no_internals(tmp_path):
    """A database broken under the running server: each way of asking gets a plain apology;
    the details go to the server's log only."""
    db = tmp_path / "club.sqlite3"
    log = tmp_path / "server.log"
    srv = Server(f"sqlite:///{db}", log=log).start()
    try:
        with (
            httpx.Client(base_url=srv.base, timeout=20) as a,
            httpx.Client(base_url=srv.base, timeout=20) as b,
        ):
            register(a, f"brk{next(_names)}")
            register(b, f"brk{next(_names)}")
            pk = create_game(a, "toy", [("me", ""), ("open", "")])
            join(b, pk)
            with sqlite3.connect(db) as conn:
                conn.execute("DROP TABLE moves")
            page = a.get(f"/games/{pk}")
            api = a.get(f"/api/games/{pk}")
            with connect(f"ws://127.0.0.1:{srv.port}/ws/games/{pk}", open_timeout=10) as ws:
                seen, code = until_closed(ws)
            # The failures ended with their answers: the same connection serves on.
            assert a.get("/rules").status_code == 200
        assert page.status_code == api.status_code == 500
        assert "Something went wrong on the server" in page.text
        assert api.json() == {"ok": False, "error": "Something went wrong on the server; sorry."}
        assert code == 1011 and len(seen) == 1 and "Something went wrong" in seen[0]["message"]
        for body in (page.text, api.text, json.dumps(seen)):
            assert not LEAKS.search(body), LEAKS.search(body)
        # The operator still learns what happened, once per failure.
        logged = log.read_text()
        assert "no such table: moves" in logged and "unexpected error on /games/" in logged
        assert "Exception in ASGI application" not in logged
    finally:
        srv.kill()


# --- the options of ``ludoteca serve`` ------------------------------------------------------------
def test_ludoteca_serve_trusts_forwarded_addresses_only_from_named_proxies(tmp_path):
    from tests.web.infra.test_serve import serve, stop

    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    options = ("--database", url, "--forwarded-allow-ips", "192.0.2.99")
    proc, port = serve(tmp_path, *options, "--registrations-per-hour", "2")
    try:
        base = f"http://127.0.0.1:{port}"
        codes = []
        for _ in range(3):
            # 127.0.0.1 is not the named proxy: its X-Forwarded-For is ignored, so every
            # registration counts against 127.0.0.1, whatever address it claims.
            c = httpx.Client(base_url=base, headers={"X-Forwarded-For": new_address()})
            codes.append(register(c, f"srv{next(_names)}").status_code)
            if codes == [303]:
                pk = create_game(c, "kuniumi", [("me", ""), ("open", "")])
            c.close()
        assert codes == [303, 303, 429]
        # uvicorn closes a websocket whose message is over the club's frame limit.
        with connect(f"ws://127.0.0.1:{port}/ws/games/{pk}", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            ws.send("x" * (WS_MAX_SIZE + 1))
            _, code = until_closed(ws)
        assert code == 1009
    finally:
        stop(proc)
