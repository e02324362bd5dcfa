"""Mail and accounts, in-process against a real SMTP server (aiosmtpd), each message read
with Python's ``email`` package as a mail program reads it: the member's language from
registration on, plain-ASCII ``List-Unsubscribe`` for one click, addresses confirmed before
use and validated, unsubscribe links that expire and die on re-subscribing, turn e-mail
only for members away (and batched), floods bounded, look-alike and staff names refused,
the notifications page changing nothing on GET, passwords changed and reset, HSTS."""

from __future__ import annotations

import email
import itertools
import re
import time
from email import policy
from email.message import EmailMessage
from urllib.parse import urlsplit

import pytest
from sqlalchemy import func, select

from ludoteca.core.messages import Text
from ludoteca.web.i18n.catalogs import language
from tests.web.helpers import PASSWORD, create_game, move, play_randomly, register, view
from tests.web.inprocess import TestClient, new_client

from .helpers import challenge, form, notes, pending_ids
from .smtp import smtp  # noqa: F401 - fixture

PUBLIC = "http://a-club-with-a-rather-long-name-so-that-its-links-pass-78-characters.example"
_names = itertools.count(1)


@pytest.fixture(scope="module")
def mailclub(tmp_path_factory, smtp):  # noqa: F811
    """A club that sends through ``smtp``; the tests run its sender themselves
    (:meth:`Mailer.send_waiting`), so they know when mail has gone."""
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.throttle import Limit, Limits
    from ludoteca.web.notify import mail

    url = f"sqlite:///{tmp_path_factory.mktemp('mailclub') / 'club.sqlite3'}"
    limits = Limits(register_per_address=Limit(10_000, 60))
    mail.POLL_SECONDS, poll = 3600.0, mail.POLL_SECONDS
    app = create_app(
        url, bot_pool="thread", limits=limits, smtp=smtp.url, public_url=PUBLIC, turn_mail_delay=0
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        client.url = url  # type: ignore[attr-defined]
        yield client
    mail.POLL_SECONDS = poll


def person(club, lang: str = "en", prefix: str = "ma"):
    client = new_client(club)
    client.headers["accept-language"] = lang
    name = f"{prefix}{next(_names)}"
    assert register(client, name).status_code == 303
    client.name = name  # type: ignore[attr-defined]
    return client


def mailer(club):
    return club.app.state.club.mailer


def deliver(club, smtp, wanted: int) -> list[EmailMessage]:  # noqa: F811
    """Send what waits; the ``wanted`` new messages, parsed as a mail program does."""
    before = len(smtp.messages)
    mailer(club).send_waiting()
    time.sleep(0.05)
    got = smtp.messages[before:]
    assert len(got) == wanted, [m["Subject"] for m in got]
    raw = smtp.raw[before:]
    return [email.message_from_bytes(m, policy=policy.default) for m in raw]  # type: ignore[misc]


def body(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()  # type: ignore[union-attr]


def path_of(url: str) -> str:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == PUBLIC
    return parts.path


def set_email(client, address: str, turns: bool = True, challenges: bool = True):
    data = {"email": address}
    if turns:
        data["email_turns"] = "on"
    if challenges:
        data["email_challenges"] = "on"
    return form(client, "/settings/notifications", "/settings/notifications", **data)


def confirmed(club, smtp, client, address: str) -> None:  # noqa: F811
    """Give ``client`` the address and open the confirmation link mailed to it."""
    r = set_email(client, address)
    assert r.status_code == 303 and "sent=1" in r.headers["location"]
    [mail] = deliver(club, smtp, 1)
    assert mail["To"] == address and mail["List-Unsubscribe"] is None
    link = path_of(re.search(r"https?://\S+/confirm-email/\S+", body(mail)).group(0))
    assert new_client(club).get(link).status_code == 200  # a GET (a scanner) confirms nothing
    assert not prefs_of(club, client.name).email_confirmed
    assert new_client(club).post(link).status_code == 200
    assert prefs_of(club, client.name).email_confirmed


def prefs_of(club, name: str):
    from ludoteca.web.notify.service import prefs_of as read

    state = club.app.state.club
    with state.store.reading() as db:
        return read(db, state.accounts.user_by_name(name).id)


def unsubscribe_link(message: EmailMessage) -> str:
    raw = message["List-Unsubscribe"]
    assert raw is not None and "=?" not in str(raw) and str(raw).isascii()
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.fullmatch(r"<(https?://[!-~]+)>", str(raw))
    assert found, raw
    return found.group(1)


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_mail_is_in_the_language_registered_in_with_a_plain_one_click_header(
    mailclub,
    smtp,  # noqa: F811
    lang,
):
    alice, bob = person(mailclub), person(mailclub, lang)
    confirmed(mailclub, smtp, bob, f"{bob.name}@example.org")
    assert challenge(alice, bob.name).status_code == 303
    [mail] = deliver(mailclub, smtp, 1)
    words = language(lang)
    said = words.text(
        Text("{name} challenges you to {game}", {"name": alice.name, "game": "Toy noughts"})
    )
    assert said != f"{alice.name} challenges you to Toy noughts"  # truly translated
    assert mail["Subject"] == f"ludoteca: {said}"
    assert mail["Date"].datetime is not None and mail["Message-ID"].endswith("@ludoteca.test>")
    text = body(mail)
    assert words.gettext("challenges and rematches") in text
    assert "You get this e-mail" not in text
    # The raw header, as it travelled: one plain line, however long the club's address.
    raw = smtp.raw[-1].decode("ascii", "replace")
    line = next(h for h in raw.split("\r\n") if h.startswith("List-Unsubscribe:"))
    assert "=?" not in line and len(line) > 78
    link = unsubscribe_link(mail)
    assert link in text
    r = new_client(mailclub).post(path_of(link), data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    assert 'name="email_challenges" checked' not in bob.get("/settings/notifications").text


def test_a_member_without_a_language_gets_the_one_they_log_in_with(mailclub):
    from sqlalchemy import update

    from ludoteca.web.infra.store import User

    state = mailclub.app.state.club
    carol = person(mailclub, "ja")
    with state.store.session() as db:  # as a member registered before languages were kept
        db.execute(update(User).where(User.name == carol.name).values(language=None))
        db.commit()
    browser = new_client(mailclub)
    browser.headers["accept-language"] = "de"
    data = {"name": carol.name, "password": PASSWORD, "csrf": _csrf(browser)}
    assert browser.post("/login", data=data, follow_redirects=False).status_code == 303
    assert state.accounts.user_by_name(carol.name).language == "de"


def test_nothing_but_the_confirmation_goes_to_an_unconfirmed_address(mailclub, smtp):  # noqa: F811
    alice, bob = person(mailclub), person(mailclub)
    address = f"{bob.name}@example.org"
    assert set_email(bob, address).status_code == 303
    assert challenge(alice, bob.name).status_code == 303
    [mail] = deliver(mailclub, smtp, 1)  # the confirmation alone, not the challenge
    assert "confirm-email" in body(mail)
    # Saving again soon sends no second link; other accounts typing the address get a few
    # links to it in a day, then none.
    r = set_email(bob, address)
    assert "sent=0" in r.headers["location"]
    for _ in range(2):
        set_email(person(mailclub), address)
    deliver(mailclub, smtp, 2)
    assert set_email(person(mailclub), address.upper()).status_code == 303
    deliver(mailclub, smtp, 0)


BAD_ADDRESSES = [
    "a:b@example.org",
    "(comment)c@example.org",
    "=?utf-8?q?f?=@example.org",
    "d(e@example.org",
    "bell\x07@example.org",
    "tab\t@example.org",
    "ünïcode@example.org",
    '"quoted"@example.org',
    "Someone <s@example.org>",
    "x@[127.0.0.1]",
    "two@@example.org",
    "nodomain@",
    "x@localhost",
]


def test_addresses_that_deliver_elsewhere_are_refused(mailclub):
    from ludoteca.web.kernel.errors import ClubError
    from ludoteca.web.notify.service import check_address

    for bad in BAD_ADDRESSES:
        with pytest.raises(ClubError):
            check_address(bad)
    assert check_address(" Bob@Example.org ") == "Bob@example.org"
    assert check_address("ana@bücher.example") == "ana@xn--bcher-kva.example"
    bob = person(mailclub)
    r = set_email(bob, "a:b@example.org")
    assert (
        r.status_code == 400
        and 'value="a:b@example.org"' not in bob.get("/settings/notifications").text
    )


def test_unsubscribe_links_expire_and_die_on_resubscribing(mailclub, smtp, monkeypatch):  # noqa: F811
    from itsdangerous.timed import TimestampSigner

    alice, bob = person(mailclub), person(mailclub)
    confirmed(mailclub, smtp, bob, f"{bob.name}@example.org")
    challenge(alice, bob.name)
    [first] = deliver(mailclub, smtp, 1)
    old = path_of(unsubscribe_link(first))
    assert new_client(mailclub).post(old).status_code == 200
    assert set_email(bob, f"{bob.name}@example.org").status_code == 303  # subscribed again
    assert new_client(mailclub).post(old).status_code == 410
    assert 'name="email_challenges" checked' in bob.get("/settings/notifications").text
    # A link made 61 days ago is refused as too old.
    real = TimestampSigner.get_timestamp
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: real(self) - 61 * 86400)
    user_id = mailclub.app.state.club.accounts.user_by_name(bob.name).id
    stale = path_of(mailer(mailclub).unsubscribe_url(user_id, "challenges", 2))
    monkeypatch.undo()
    assert new_client(mailclub).post(stale).status_code == 410
    assert new_client(mailclub).post(stale[:-3] + "AAA").status_code == 404
    assert 'name="email_challenges" checked' in bob.get("/settings/notifications").text


def correspondence(a, b) -> int:
    """A correspondence game of ``a`` and ``b`` in which ``b`` is to move (after the toss
    and, if it fell to ``a``, ``a``'s first move)."""
    challenge(a, b.name, clock="correspondence", clock_days="3")
    [pk] = pending_ids(b, "incoming")
    r = form(b, f"/challenges/{pk}/accept", "/challenges")
    game = int(r.headers["location"].rsplit("/", 1)[1])
    if not view(b, game)["your_turn"]:
        assert move(a, game, view(a, game)["legal"][0]["text"]).status_code == 200
    assert view(b, game)["your_turn"]
    return game


def test_turn_mail_only_for_members_away_and_batched(mailclub, smtp):  # noqa: F811
    alice, bob = person(mailclub), person(mailclub, "ja")
    confirmed(mailclub, smtp, bob, f"{bob.name}@example.org")
    prefs = {"email": f"{bob.name}@example.org", "email_turns": "on"}
    form(bob, "/settings/notifications", "/settings/notifications", **prefs)  # turns only
    mailer(mailclub).turn_delay = 3600
    one, two, seen = (correspondence(alice, bob) for _ in range(3))
    # On the page of the third game, the turn is shown, not announced: the page marks it read.
    [note] = [n for n in notes(bob)["items"] if n["link"] == f"/games/{seen}"]
    r = bob.post(
        f"/api/notifications/read?id={note['id']}",
        headers={"x-csrf-token": re.search(r'data-csrf="([^"]+)"', bob.get("/").text).group(1)},
    )
    assert r.status_code == 200
    deliver(mailclub, smtp, 0)  # nothing is due yet
    mailer(mailclub).turn_delay = 0
    [mail] = deliver(mailclub, smtp, 1)  # the two games he has not seen, in one e-mail
    text = body(mail)
    assert f"/games/{one}" in text and f"/games/{two}" in text and f"/games/{seen}" not in text
    words = language("ja")
    assert mail["Subject"] == "ludoteca: " + words.ngettext(
        "Your turn in {n} game", "Your turn in {n} games", 2
    ).format(n=2)
    assert mail["Subject"] != "ludoteca: Your turn in 2 games"
    unsubscribe_link(mail)
    # A turn e-mail waiting when he turns turn e-mails off is not sent.
    mailer(mailclub).turn_delay = 3600
    correspondence(alice, bob)
    form(bob, "/settings/notifications", "/settings/notifications", email=prefs["email"])
    mailer(mailclub).turn_delay = 0
    deliver(mailclub, smtp, 0)
    # A game played live (no correspondence clock) sends no turn e-mail at all.
    challenge(alice, bob.name, seat="second")
    [pk] = pending_ids(bob, "incoming")
    form(bob, f"/challenges/{pk}/accept", "/challenges")
    deliver(mailclub, smtp, 0)


def test_flooding_challenges_and_notifications_is_bounded(mailclub):
    from ludoteca.web.challenges.service import PER_PAIR

    alice, bob = person(mailclub), person(mailclub)
    for _ in range(PER_PAIR):
        assert challenge(alice, bob.name).status_code == 303
        [pk] = pending_ids(alice, "outgoing")
        assert form(alice, f"/challenges/{pk}/cancel", "/challenges").status_code == 303
    r = challenge(alice, bob.name)
    assert r.status_code == 429
    assert notes(bob)["unread"] == PER_PAIR
    assert challenge(person(mailclub), bob.name).status_code == 303  # others still may


def test_unread_notifications_are_capped(mailclub):
    from ludoteca.web.notify.models import Notification
    from ludoteca.web.notify.service import KEPT, notify

    bob = person(mailclub)
    club = mailclub.app.state.club
    user_id = club.accounts.user_by_name(bob.name).id
    with club.store.session() as db:
        for i in range(KEPT + 25):
            notify(db, user_id, "challenge", Text("flood {n}", {"n": i}), "/challenges")
        db.commit()
        count = db.scalar(
            select(func.count()).select_from(Notification).where(Notification.user_id == user_id)
        )
    assert count == KEPT
    assert notes(bob)["unread"] == KEPT


def test_the_notifications_page_changes_nothing_until_asked(mailclub):
    alice, bob = person(mailclub), person(mailclub)
    challenge(alice, bob.name)
    assert f"{alice.name} challenges you" in bob.get("/notifications").text
    assert notes(bob)["unread"] == 1  # looking is not reading
    page = bob.get("/notifications").text
    assert 'id="mark-read"' in page
    r = form(bob, "/notifications/read", "/notifications")
    assert r.status_code == 303 and notes(bob)["unread"] == 0
    assert bob.post("/notifications/read", data={}).status_code == 403  # no token, no change


def test_look_alike_and_staff_names_are_refused(mailclub):
    first = person(mailclub, prefix="alice")
    for name in (first.name.replace("l", "I", 1), first.name.replace("l", "1", 1)):
        r = register(new_client(mailclub), name)
        assert r.status_code == 400 and "looks too much like" in r.text, name
    for name in ("admin", "Adm1n", "moderator", "ludoteca", "root", "r00t", "ludoteca_team"):
        r = register(new_client(mailclub), name)
        assert r.status_code == 400 and "kept for the club" in r.text, name
    assert register(new_client(mailclub), "groot").status_code == 303


def test_password_change_and_reset_by_mail(mailclub, smtp):  # noqa: F811
    bob = person(mailclub, "de")
    other_browser = new_client(mailclub)
    assert other_browser.post(
        "/login", data={"name": bob.name, "password": PASSWORD, "csrf": _csrf(other_browser)}
    ).status_code in (200, 303)
    assert other_browser.get("/api/notifications").status_code == 200
    fresh = "a brand new secret"
    r = form(
        bob,
        "/settings/password",
        "/settings/password",
        old="wrong one!",
        password=fresh,
        password2=fresh,
    )
    assert r.status_code == 400
    r = form(
        bob,
        "/settings/password",
        "/settings/password",
        old=PASSWORD,
        password=fresh,
        password2=fresh,
    )
    assert r.status_code == 303
    assert bob.get("/api/notifications").status_code == 200  # this browser stays in
    assert other_browser.get("/api/notifications").status_code == 401  # the others are out
    # Forgotten: a link to the confirmed address, in his language, that works once.
    anon = new_client(mailclub)
    assert form(anon, "/password/forgot", "/password/forgot", name=bob.name).status_code == 303
    deliver(mailclub, smtp, 0)  # no confirmed address, no e-mail (and the same answer)
    confirmed(mailclub, smtp, bob, f"{bob.name}@example.org")
    assert form(anon, "/password/forgot", "/password/forgot", name=bob.name).status_code == 303
    [mail] = deliver(mailclub, smtp, 1)
    assert mail["Subject"] == "ludoteca: " + language("de").gettext("Reset your password")
    link = path_of(re.search(r"https?://\S+/password/reset/\S+", body(mail)).group(0))
    newest = "the newest secret"
    r = form(anon, link, link, password=newest, password2=newest)
    assert r.status_code == 303 and r.headers["location"] == "/login?reset=1"
    assert anon.get(link).status_code == 410  # used
    assert bob.get("/api/notifications").status_code == 401
    login = new_client(mailclub)
    data = {"name": bob.name, "password": newest, "csrf": _csrf(login)}
    assert login.post("/login", data=data, follow_redirects=False).status_code == 303


def _csrf(client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)


def test_hsts_only_over_https(mailclub):
    secure = TestClient(mailclub.app, base_url="https://testserver")
    assert secure.get("/").headers["strict-transport-security"].startswith("max-age=")
    assert "strict-transport-security" not in mailclub.get("/").headers


def test_games_against_the_computer_add_no_bell_entry_when_they_end(mailclub):
    import random

    # The computer answers from tasks of the app's own event loop: the client that holds it
    # open plays (another client's request would end its loop, and the task, with it).
    bob, alice = mailclub, person(mailclub)
    assert register(bob, "solo1").status_code == 303
    bob.name = "solo1"  # type: ignore[attr-defined]
    for _ in range(2):
        game = create_game(bob, "toy", [("me", ""), ("bot", "random")])
        assert play_randomly(bob, game, random.Random(game), seconds=30)["status"] == "finished"
    assert notes(bob)["items"] == []
    # Between two people, the end is still told to both.
    game = correspondence(alice, bob)
    while view(bob, game)["status"] != "finished":
        mover = bob if view(bob, game)["your_turn"] else alice
        assert move(mover, game, view(mover, game)["legal"][0]["text"]).status_code == 200
    assert any(n["kind"] == "ended" and n["link"] == f"/games/{game}" for n in notes(bob)["items"])
