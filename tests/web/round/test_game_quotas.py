"""One account cannot flood the club with games: it may keep only a few waiting for players
(so the lobby keeps everyone's), start only so many in ten minutes (HTTP 429 with
``Retry-After``), and a private game waiting for players is listed only to whom it awaits."""

from __future__ import annotations

import re
import threading

from sqlalchemy import func, select

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, Store
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.quotas import GAMES_CREATED_PER_USER, OPEN_GAMES_PER_USER
from ludoteca.web.round.service import GameService, SeatSpec
from tests.web.helpers import create_game, join, page_csrf

OPEN_SECTION = re.compile(r"<h2>Open games</h2>(.*?)</section>", re.S)
ERROR = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.S)


def listed_open(client) -> set[int]:
    """The game numbers in the lobby's *Open games* as ``client`` sees it."""
    section = OPEN_SECTION.search(client.get("/").text)
    assert section, "no open-games section in the lobby"
    return {int(n) for n in re.findall(r'data-game-id="(\d+)"', section.group(1))}


def new_game(client, seats: dict[str, str], **extra: str):
    data = {"csrf": page_csrf(client, "/games/new"), "game": "toy", **seats, **extra}
    return client.post("/games", data=data, follow_redirects=False)


OPEN = {"seat0": "me", "seat1": "open"}


def test_a_flood_of_open_games_leaves_everyone_elses_in_the_lobby(make_user):
    other, flooder, visitor = make_user("calm"), make_user("flood"), make_user("look")
    mine = create_game(other, "toy", [("me", ""), ("open", "")])
    answers = []

    def flood(count: int) -> None:
        for _ in range(count):
            answers.append(new_game(flooder, OPEN))

    threads = [threading.Thread(target=flood, args=(10,)) for _ in range(5)]  # 50 at once
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    made = [r for r in answers if r.status_code == 303]
    refused = [r for r in answers if r.status_code != 303]
    assert len(made) == OPEN_GAMES_PER_USER, [r.status_code for r in answers]
    for r in refused:
        assert r.status_code == 409, r.text[:300]
        message = ERROR.search(r.text)
        assert message and "games waiting for players" in message.group(1)
        assert 'id="new-game"' in r.text  # the form again, with the reason above it
    shown = listed_open(visitor)
    assert mine in shown
    assert len(shown & {int(r.headers["location"].rsplit("/", 1)[1]) for r in made}) == len(made)


def test_cancelling_a_waiting_game_makes_room_for_another(make_user):
    a, b = make_user("can"), make_user("cbn")
    games = [create_game(a, "toy", [("me", ""), ("open", "")]) for _ in range(OPEN_GAMES_PER_USER)]
    assert new_game(a, OPEN).status_code == 409
    page = a.get(f"/games/{games[0]}").text
    assert 'id="cancel"' in page and 'id="cancel"' not in b.get(f"/games/{games[0]}").text
    # Only its creator may cancel it, and only while no one else has joined.
    r = b.post(f"/games/{games[0]}/cancel", data={"csrf": page_csrf(b)}, follow_redirects=False)
    assert r.status_code == 403 and "Only the player who created" in r.text
    assert join(b, games[1]).status_code == 303
    r = a.post(f"/games/{games[1]}/cancel", data={"csrf": page_csrf(a)}, follow_redirects=False)
    assert r.status_code == 409 and "can no longer be cancelled" in r.text
    r = a.post(f"/games/{games[0]}/cancel", data={"csrf": page_csrf(a)}, follow_redirects=False)
    assert r.status_code == 303
    assert a.get(f"/games/{games[0]}").status_code == 404
    assert games[0] not in listed_open(b)
    # One started (b joined), one cancelled: two places free again.
    assert new_game(a, OPEN).status_code == 303
    assert new_game(a, OPEN).status_code == 303
    assert new_game(a, OPEN).status_code == 409


def test_starting_games_too_fast_is_refused_with_retry_after(make_user):
    a = make_user("fast")
    alone = {"seat0": "me", "seat1": "user", "seat1_user": a.name}  # both seats: starts at once
    for _ in range(GAMES_CREATED_PER_USER.count):
        assert new_game(a, alone).status_code == 303
    r = new_game(a, alone)
    assert r.status_code == 429
    wait = int(r.headers["retry-after"])
    assert 0 < wait <= GAMES_CREATED_PER_USER.minutes * 60
    message = ERROR.search(r.text)
    assert message and f"started {GAMES_CREATED_PER_USER.count} games" in message.group(1)
    assert "try again after" in message.group(1)
    # Someone else still starts games.
    assert new_game(make_user("slow"), OPEN).status_code == 303


def test_a_private_game_waiting_for_players_is_listed_only_to_whom_it_awaits(make_user):
    a, invited, stranger = make_user("pva"), make_user("pvb"), make_user("pvc")
    r = new_game(a, OPEN, private="on")
    assert r.status_code == 303
    hidden = int(r.headers["location"].rsplit("/", 1)[1])
    r = new_game(a, {"seat0": "me", "seat1": "user", "seat1_user": invited.name}, private="on")
    reserved = int(r.headers["location"].rsplit("/", 1)[1])
    public = create_game(a, "toy", [("me", ""), ("open", "")])
    assert public in listed_open(stranger)
    assert hidden not in listed_open(stranger) and reserved not in listed_open(stranger)
    assert reserved in listed_open(invited) and hidden not in listed_open(invited)
    # Whoever has the link may still open it and take the open seat.
    assert join(stranger, hidden).status_code == 303


def test_two_processes_creating_at_once_stay_within_the_cap(postgres):
    """Servers on one PostgreSQL database count the same games: of many creations at once
    through two of them, exactly as many as the cap stand."""
    url = postgres.fresh_database("quotas")
    stores = [Store(url), Store(url)]
    alice = Accounts(stores[0], b"k" * 32).register("alice", "a fine password")
    services = [GameService(store) for store in stores]
    made: list[int] = []
    refusals: list[str] = []

    def create(service: GameService) -> None:
        for _ in range(4):
            try:
                made.append(service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("open")]))
            except ClubError as exc:
                refusals.append(exc.message)

    threads = [threading.Thread(target=create, args=(s,)) for s in services * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert len(made) == OPEN_GAMES_PER_USER, refusals
        assert len(refusals) == 16 - OPEN_GAMES_PER_USER
        assert all("games waiting for players" in m for m in refusals)
        with stores[0].session() as db:
            stored = db.scalar(select(func.count()).select_from(GameRow))
        assert stored == OPEN_GAMES_PER_USER
    finally:
        for store in stores:
            store.dispose()
