"""A live tournament pairing opens its game on the player's page even when it was made while
the page's bell socket was down (the page loading, or its connection dropped): the bell asks
for it as it connects. The game's own page marks it read, after which it opens nothing; a
pairing whose game is over, read, old, untimed or by correspondence opens nothing either."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from ludoteca.core.messages import Text
from ludoteca.web.infra.store import GameRow, Store, User, utcnow
from ludoteca.web.notify.models import Notification
from ludoteca.web.notify.service import notify, waiting_pairing
from tests.web.helpers import correspondence_swiss, create_game, join, member, page_csrf, register
from tests.web.inprocess import club_in_process

_names = itertools.count(1)
PAIRED = Text("Your next game in {name} is ready.", {"name": "Night Swiss"})


def _pair(store: Store, name: str, pk: int) -> int:
    """Write ``name``'s pairing for game ``pk`` straight into the club's database, as the
    director does, but with no page told of it: as if every socket of theirs were down."""
    with store.session() as db:
        user = db.scalar(select(User).where(User.name == name))
        ident = notify(db, user.id, "pairing", PAIRED, f"/games/{pk}", mail=False).id
        db.commit()
        return ident


def _live_game(client, rival) -> int:
    """A toy game on a live clock (ten minutes, five seconds a move) between ``client``'s
    member and ``rival``'s, made by the new-game form and joined."""
    data = {
        "csrf": page_csrf(client), "game": "toy", "seat0": "me", "seat1": "user",
        "seat1_user": rival.name, "clock": "live", "clock_base": "10", "clock_increment": "5",
    }  # fmt: skip
    made = client.post("/games", data=data, follow_redirects=False)
    assert made.status_code == 303, made.text
    pk = int(made.headers["location"].rsplit("/", 1)[1])
    assert join(rival, pk).status_code == 303
    return pk


def _is_read(store: Store, ident: int) -> bool:
    with store.session() as db:
        return bool(db.scalar(select(Notification.read).where(Notification.id == ident)))


class BellPage:
    """A member's page in Chromium whose bell socket goes through the test: it can be
    dropped, and kept refused while :attr:`down` is set."""

    def __init__(self, browser, base: str, client, viewport: dict) -> None:
        self.context = browser.new_context(viewport=viewport)
        cookie = client.cookies["ludoteca_session"]
        self.context.add_cookies([{"name": "ludoteca_session", "value": cookie, "url": base}])
        self.page = self.context.new_page()
        self.sockets: list = []
        self.down = False
        self.page.route_web_socket(re.compile(r"/ws/me"), self._bell_socket)

    def _bell_socket(self, socket) -> None:
        if self.down:
            socket.close()
            return
        socket.connect_to_server()
        self.sockets.append(socket)

    def open(self, url: str, ready: str) -> None:
        """Open ``url``, and wait until ``ready`` shows and the page's bell socket is open."""
        self.page.goto(url)
        self.page.wait_for_selector(ready)
        for _ in range(100):
            if self.sockets:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("the page opened no bell socket")


def test_a_pairing_made_while_the_socket_was_down_opens_its_game(server, browser):
    base = server.base
    ann = member(base, f"wpann{next(_names)}")
    bob = member(base, f"wpbob{next(_names)}")
    finished = create_game(ann, "toy", [("me", ""), ("user", bob.name)])
    assert join(bob, finished).status_code == 303
    resigned = ann.post(f"/api/games/{finished}/resign", headers={"X-CSRF-Token": page_csrf(ann)})
    assert resigned.status_code == 200
    paired = _live_game(ann, bob)
    bell = BellPage(browser, base, ann, {"width": 390, "height": 844})
    page = bell.page
    store = Store(server.url, migrate_schema=False)  # the club's database, from the test
    try:
        # on the page of her finished game, her bell's socket drops; the pairing is made
        bell.open(f"{base}/games/{finished}", "#play[data-status=finished]")
        bell.down = True
        bell.sockets[0].close()
        ident = _pair(store, ann.name, paired)
        page.wait_for_timeout(500)
        assert page.url.endswith(f"/games/{finished}")  # nothing told the page yet
        bell.down = False
        # reconnected, the bell hears of the pairing and the page opens its game
        page.wait_for_url(re.compile(rf"/games/{paired}$"), timeout=20000)
        page.wait_for_selector("#play[data-synced='1']")
        deadline = 100
        while not _is_read(store, ident):  # its own page marked it read
            deadline -= 1
            assert deadline, "the game's page did not mark its pairing read"
            page.wait_for_timeout(100)
        # read, it opens nothing: the finished game's page stays where it is
        page.goto(f"{base}/games/{finished}")
        page.wait_for_selector("#play[data-status=finished]")
        page.wait_for_timeout(1500)
        assert page.url.endswith(f"/games/{finished}")
    finally:
        store.engine.dispose()
        bell.context.close()


def test_a_correspondence_pairing_heard_live_is_shown_and_waits(server, browser):
    """A correspondence tournament's pairing, heard on a game page, is a notice: the page
    stays where the member was (they may be thinking about that game), and the notice links
    to the new game. A live one opens its game (``test_tournaments_browser.py``)."""
    base = server.base
    ann = member(base, f"wcann{next(_names)}")
    bob = member(base, f"wcbob{next(_names)}")
    tournament = correspondence_swiss(ann, "Slow Swiss", "toy", 2, bob)
    thinking = _live_game(ann, bob)  # the game she is looking at
    bell = BellPage(browser, base, ann, {"width": 1280, "height": 800})
    page = bell.page
    try:
        bell.open(f"{base}/games/{thinking}", "#play[data-synced='1']")
        started = ann.post(
            f"/tournaments/{tournament}/start", data={"csrf": page_csrf(ann, "/tournaments")}
        )
        assert started.status_code == 303
        notice = page.locator('.toast[data-kind="pairing"] a')
        notice.wait_for(timeout=15000)
        assert re.fullmatch(r"/games/\d+", notice.get_attribute("href") or "")
        page.wait_for_timeout(1000)
        assert page.url.endswith(f"/games/{thinking}")
    finally:
        bell.context.close()


@pytest.mark.parametrize(
    "case", ["active", "finished", "read", "old", "turn", "correspondence", "untimed"]
)
def test_only_an_unread_recent_pairing_of_a_game_in_play_waits(url, case):
    with club_in_process(url) as client:
        assert register(client, "Wanda").status_code == 303
        store = client.app.state.club.store
        with store.session() as db:
            user = db.scalar(select(User).where(User.name == "Wanda"))
            status = "finished" if case == "finished" else "active"
            clock = {"kind": "live", "base": 180, "increment": 2}
            if case == "correspondence":
                clock = {"kind": "correspondence", "days": 2}
            game = GameRow(
                game="toy", rules_version="1", seed=1, status=status,
                clock=None if case == "untimed" else clock,
            )  # fmt: skip
            db.add(game)
            db.flush()
            kind = "turn" if case == "turn" else "pairing"
            row = notify(db, user.id, kind, PAIRED, f"/games/{game.id}", mail=False)
            if case == "read":
                row.read = True
            if case == "old":
                row.created = utcnow() - timedelta(hours=2)
            db.commit()
            waiting = waiting_pairing(db, user.id)
            assert (waiting is not None and waiting.id == row.id) == (case == "active")
            db.execute(update(Notification).values(read=True))
            assert waiting_pairing(db, user.id) is None
