"""Ratings, leaderboards and profiles.

The stored ratings after rated games are checked against the rating libraries called
directly (glicko2 for two players, openskill's Plackett-Luce for Hexagone with three or four),
casual games and computer seats are checked to change nothing, and the pages are read from a
real server.
"""

from __future__ import annotations

import html
import itertools
from datetime import datetime, timedelta

import glicko2
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from ludoteca.core.protocol import Result
from ludoteca.web.accounts.profiles import top_players
from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, Rating, RatingHistory, Store, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.ratings.service import (
    PROVISIONAL_DEVIATION,
    deviation_now,
    finishing_ranks,
    is_provisional,
    known_pools,
    pool_for,
    shown,
    update_ratings,
)
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec
from tests.web.helpers import move, page_csrf, view

_db = itertools.count(1)
RATED = GameSettings(rated=True)
WIN_FOR_FIRST = ["a1", "b1", "a2", "b2", "a3"]
"""Toy noughts: whoever moves first completes the a-file."""
DRAW = ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"]
"""Toy noughts: a full board without a line."""


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'ratings.sqlite3'}"


def club_of(url: str, names=("alice", "bob")):
    store = Store(url)
    accounts = Accounts(store, b"k" * 32)
    people = [accounts.register(n, "a fine password") for n in names]
    service = GameService(store)
    service.on_finish.append(update_ratings)
    return store, service, people


def toy_game(service, a, b, settings=RATED) -> int:
    pk = service.create(a, "toy", {}, [SeatSpec("me"), SeatSpec("user", user=b.name)], settings)
    service.join(pk, b)
    return pk


def play_out(service, pk, people, moves) -> int:
    """Play ``moves`` alternately from whoever the toss made first; return that seat."""
    row, state = service.state(pk)
    first = state.to_move
    for text in moves:
        _, state = service.state(pk)
        service.submit(pk, people[state.to_move], text)
    assert service.row(pk).status == "finished"
    return first


def ratings_of(store, pool):
    with store.session() as db:
        return {r.user_id: r for r in db.scalars(select(Rating).where(Rating.pool == pool))}


def history_of(store):
    with store.session() as db:
        return list(db.scalars(select(RatingHistory).order_by(RatingHistory.id)))


def glicko(a: glicko2.Player, b: glicko2.Player, score_a: float):
    """One game in the library itself: both players, each against the other's old rating."""
    na = glicko2.Player(a.rating, a.rd, a.vol)
    nb = glicko2.Player(b.rating, b.rd, b.vol)
    na.update_player([b.rating], [b.rd], [score_a])
    nb.update_player([a.rating], [a.rd], [1 - score_a])
    return na, nb


def assert_matches(stored: Rating, player: glicko2.Player):
    assert stored.rating == pytest.approx(player.rating, abs=1e-9)
    assert stored.deviation == pytest.approx(player.rd, abs=1e-9)
    assert stored.volatility == pytest.approx(player.vol, abs=1e-12)


# --- two players: Glicko-2 -----------------------------------------------------------------------
@pytest.mark.parametrize("how", ["alice wins", "alice loses", "draw"])
def test_rated_two_player_games_match_glicko2(url, how):
    store, service, (alice, bob) = club_of(url)
    pk = toy_game(service, alice, bob)
    people = {0: alice, 1: bob}
    if how == "draw":
        play_out(service, pk, people, DRAW)
        score = 0.5
    elif how == "alice wins":
        # Whoever starts wins the a-file game; when bob starts, alice wins by his resignation.
        _, state = service.state(pk)
        if people[state.to_move] is alice:
            play_out(service, pk, people, WIN_FOR_FIRST)
        else:
            service.resign(pk, bob)
        score = 1.0
    else:
        service.resign(pk, alice)
        score = 0.0
    result = service.row(pk).result
    assert result["winners"] == ([] if score == 0.5 else [0] if score == 1 else [1])

    a, b = glicko(glicko2.Player(), glicko2.Player(), score)
    stored = ratings_of(store, "toy")
    assert_matches(stored[alice.id], a)
    assert_matches(stored[bob.id], b)
    outcome = {1.0: (1, 0, 0), 0.5: (0, 1, 0), 0.0: (0, 0, 1)}[score]
    assert (stored[alice.id].wins, stored[alice.id].draws, stored[alice.id].losses) == outcome
    assert (stored[bob.id].wins, stored[bob.id].draws, stored[bob.id].losses) == outcome[::-1]
    assert stored[alice.id].games == stored[bob.id].games == 1

    # A second game starts from the stored ratings, not from scratch.
    pk2 = toy_game(service, bob, alice)  # bob in seat 0 this time
    service.resign(pk2, alice)
    b2, a2 = glicko(b, a, 1.0)
    stored = ratings_of(store, "toy")
    assert_matches(stored[alice.id], a2)
    assert_matches(stored[bob.id], b2)
    assert stored[alice.id].games == 2

    history = history_of(store)
    assert [(h.user_id, h.game_id) for h in history] == [
        (alice.id, pk),
        (bob.id, pk),
        (bob.id, pk2),
        (alice.id, pk2),
    ]
    assert history[-1].rating == pytest.approx(a2.rating)
    store.dispose()


def test_two_games_ending_at_once_for_a_newcomer_both_count(postgres):
    """Two processes end rated games of the same first-time player at the same moment: the
    second waits for the first's rating instead of failing on a duplicate, and builds on it."""
    import threading

    url = postgres.fresh_database(f"ratings{next(_db)}")
    store, service, (alice, bob, carol) = club_of(url, ("alice", "bob", "carol"))
    other = GameService(Store(url))
    barrier = threading.Barrier(2, timeout=20)

    def together(db, row, state):  # both games reach the rating update at once
        barrier.wait()
        update_ratings(db, row, state)

    service.on_finish[:] = [together]
    other.on_finish[:] = [together]
    one, two = toy_game(service, alice, bob), toy_game(service, alice, carol)
    errors: list[BaseException] = []

    def resign(svc, pk, who):
        try:
            svc.resign(pk, who)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=resign, args=(service, one, bob)),
        threading.Thread(target=resign, args=(other, two, carol)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    stored = ratings_of(store, "toy")
    assert stored[alice.id].games == 2 and stored[alice.id].wins == 2
    # Whichever came second started from the first's result.
    first, _ = glicko(glicko2.Player(), glicko2.Player(), 1.0)
    second, _ = glicko(first, glicko2.Player(), 1.0)
    assert_matches(stored[alice.id], second)
    assert len(history_of(store)) == 4
    store.dispose()
    other.store.dispose()


def test_casual_games_change_no_rating(sqlite_url):
    store, service, (alice, bob) = club_of(sqlite_url)
    pk = toy_game(service, alice, bob, GameSettings(rated=False))
    play_out(service, pk, {0: alice, 1: bob}, WIN_FOR_FIRST)
    pk2 = toy_game(service, alice, bob, GameSettings(rated=False))
    service.resign(pk2, bob)
    assert service.row(pk).result["winners"] and service.row(pk2).result["winners"] == [0]
    assert ratings_of(store, "toy") == {}
    assert history_of(store) == []
    store.dispose()


def test_a_computer_seat_cannot_be_rated(sqlite_url):
    store, service, (alice, bob) = club_of(sqlite_url)
    with pytest.raises(ClubError, match="computer seat cannot be rated"):
        service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("bot", bot="random")], RATED)
    with pytest.raises(ClubError, match="one-player game cannot be rated"):
        service.create(alice, "hexagone", {"players": 1}, [SeatSpec("me")], RATED)
    with pytest.raises(ClubError, match="different player in every seat"):
        service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="alice")], RATED)
    with store.session() as db:
        assert db.scalars(select(GameRow)).all() == []  # nothing half-created
    # The same game casual is fine, and finishing it rates nobody.
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("bot", bot="random")])
    service.resign(pk, alice)
    assert ratings_of(store, "toy") == {}
    store.dispose()


def test_a_rated_game_with_a_computer_seat_is_left_unrated_by_the_hook(sqlite_url):
    """Should one exist anyway (made before the refusal, or by hand), ending it rates nobody."""
    store, service, (alice, bob) = club_of(sqlite_url)
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("bot", bot="random")])
    with store.session() as db:
        db.get(GameRow, pk).rated = True
        db.commit()
    service.resign(pk, alice)
    assert service.row(pk).status == "finished"
    assert ratings_of(store, "toy") == {} and history_of(store) == []
    store.dispose()


# --- several players: OpenSkill --------------------------------------------------------------
def library_model() -> PlackettLuce:
    # The club's documented scale: OpenSkill's defaults scaled to a 1500 start, sigma 350.
    return PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)


def hexagone_table(service, people, players: int) -> int:
    seats = [SeatSpec("me")] + [SeatSpec("user", user=p.name) for p in people[1:players]]
    pk = service.create(people[0], "hexagone", {"players": players}, seats, RATED)
    for p in people[1:players]:
        service.join(pk, p)
    assert service.row(pk).status == "active"
    return pk


def test_hexagone_three_players_by_score_match_openskill(sqlite_url):
    store, service, people = club_of(sqlite_url, ("ann", "ben", "cat"))
    pk = hexagone_table(service, people, 3)
    typed = Result(winners=(2,), num_players=3, scores=(3, 7, 9), reason="test")
    with store.session() as db:
        row = db.get(GameRow, pk)
        state = service.reader.state_in(db, row)
        service.finishing.finish(db, row, state, typed)
        db.commit()
    result = typed.to_json(state)
    assert finishing_ranks(result, 3) == [3, 2, 1]
    model = library_model()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 2, 1])
    stored = ratings_of(store, "hexagone-multi")
    for person, team in zip(people, expected, strict=True):
        assert stored[person.id].rating == pytest.approx(team[0].mu, abs=1e-9)
        assert stored[person.id].deviation == pytest.approx(team[0].sigma, abs=1e-9)
        assert stored[person.id].volatility is None
    assert stored[people[2].id].rating > stored[people[1].id].rating > stored[people[0].id].rating
    assert [(stored[p.id].wins, stored[p.id].losses) for p in people] == [(0, 1), (0, 1), (1, 0)]
    assert ratings_of(store, "hexagone") == {}  # the two-player pool is another pool
    store.dispose()


def test_hexagone_four_players_resignation_ranks_the_resigner_last(sqlite_url):
    store, service, people = club_of(sqlite_url, ("ann", "ben", "cat", "dan"))
    pk = hexagone_table(service, people, 4)
    service.resign(pk, people[1])
    result = service.row(pk).result
    assert result["resigned"] == [1]
    model = library_model()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 1, 1])
    stored = ratings_of(store, "hexagone-multi")
    for person, team in zip(people, expected, strict=True):
        assert stored[person.id].rating == pytest.approx(team[0].mu, abs=1e-9)
        assert stored[person.id].deviation == pytest.approx(team[0].sigma, abs=1e-9)
    assert stored[people[1].id].losses == 1
    assert all(stored[p.id].wins == 1 for p in people if p is not people[1])
    store.dispose()


def test_hexagone_played_to_its_end_is_rated_by_the_games_own_ranking(sqlite_url):
    import random

    store, service, people = club_of(sqlite_url, ("ann", "ben", "cat"))
    pk = hexagone_table(service, people, 3)
    rng = random.Random(7)
    with store.session() as db:
        row = db.get(GameRow, pk)
        state = service.reader.state_in(db, row).clone()
        while not state.is_over:  # a random game to its end, in memory
            moves = state.legal_moves()
            if state.to_move < 0:
                outcomes_, weights = zip(*state.chance_outcomes(), strict=True)
                state.play(rng.choices(outcomes_, weights)[0])
            else:
                state.play(rng.choice(moves))
        service.finishing.finish(db, row, state, state.result)
        db.commit()
    ranking = state.result.ranking
    ranks = [next(i for i, g in enumerate(ranking, 1) if p in g) for p in range(3)]
    model = library_model()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
    stored = ratings_of(store, "hexagone-multi")
    for person, team in zip(people, expected, strict=True):
        assert stored[person.id].rating == pytest.approx(team[0].mu, abs=1e-9)
        assert stored[person.id].deviation == pytest.approx(team[0].sigma, abs=1e-9)
    winners = set(state.result.winners)
    if winners >= {0, 1, 2}:  # all three tied first (the deal is the game's secret seed): a draw
        assert all(stored[p.id].draws == 1 and not stored[p.id].wins for p in people)
    else:
        assert {i for i, p in enumerate(people) if stored[p.id].wins} == winners
    store.dispose()


# --- reading results -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("result", "ranking", "ranks"),
    [
        ({"winners": [1], "scores": [5, 9, 5]}, None, [2, 1, 2]),
        ({"winners": [1], "scores": [5, 9, 5]}, [[1], [2], [0]], [3, 1, 2]),  # the game's order
        ({"winners": [0, 2], "scores": [4, 4, 4, 1]}, None, [1, 2, 1, 3]),
        ({"winners": [0, 2, 3], "resigned": [1], "scores": [0, 9, 0, 0]}, None, [1, 2, 1, 1]),
        ({"winners": [0], "timed_out": [2], "scores": [6, 2, 8]}, [[2], [0], [1]], [1, 2, 3]),
        ({"winners": [], "draw": True, "scores": None}, None, [1, 1]),
        # A game ended on time stores its ranking, the timed-out seat last.
        ({"winners": [1], "timed_out": [0], "ranking": [[1], [2], [0]]}, None, [3, 1, 2]),
        # A stored ranking that misses a seat is not trusted.
        (
            {"winners": [1], "timed_out": [0], "ranking": [[1]], "scores": [9, 1, 4]},
            None,
            [3, 1, 2],
        ),
    ],
)
def test_finishing_ranks(result, ranking, ranks):
    assert finishing_ranks(result, len(ranks), ranking) == ranks


def test_pools_and_provisional_marks():
    pools = known_pools()
    assert {"comune", "comino", "kuniumi", "hexagone", "hexagone-multi"} <= set(pools)
    assert pools["hexagone-multi"].title == "Hexagone, 3–4 players"
    assert (pool_for("hexagone", 1), pool_for("hexagone", 2)) == (None, "hexagone")
    assert pool_for("hexagone", 3) == pool_for("hexagone", 4) == "hexagone-multi"
    assert is_provisional("kuniumi", PROVISIONAL_DEVIATION + 1, 30)
    assert not is_provisional("kuniumi", PROVISIONAL_DEVIATION - 1, 30)
    assert shown("kuniumi", 1523.4, 200, 3) == "1523?"
    assert shown("kuniumi", 1523.6, 80, 30) == "1524"
    assert is_provisional("hexagone-multi", 100, 9)
    assert not is_provisional("hexagone-multi", 300, 10)


def test_a_deviation_grows_by_whole_days_away_as_glicko2_prescribes():
    now = datetime(2026, 6, 1, 12, 0)
    player = glicko2.Player(1620, 60, 0.06)
    for days in (0, 1, 30, 90):
        expected = glicko2.Player(1620, 60, 0.06)
        for _ in range(days):
            expected.did_not_compete()
        assert deviation_now("kuniumi", 60, 0.06, now - timedelta(days=days), now) == (
            pytest.approx(expected.rd, abs=1e-9)
        )
    # Part of a day adds nothing; a whole one does; long absence stops at a newcomer's 350.
    assert deviation_now("kuniumi", 60, 0.06, now - timedelta(hours=23), now) == 60
    assert deviation_now("kuniumi", 60, 0.06, now - timedelta(days=1), now) > player.rd
    assert deviation_now("kuniumi", 60, 0.06, now - timedelta(days=20000), now) == 350
    # About two and a half months away makes an established rating provisional again.
    assert not is_provisional(
        "kuniumi", deviation_now("kuniumi", 60, 0.06, now - timedelta(days=60), now), 40
    )
    assert is_provisional(
        "kuniumi", deviation_now("kuniumi", 60, 0.06, now - timedelta(days=90), now), 40
    )
    # OpenSkill ratings do not change with time.
    assert deviation_now("hexagone-multi", 200, None, now - timedelta(days=400), now) == 200


def test_the_leaderboard_and_the_next_game_use_the_deviation_of_today(sqlite_url):
    store, service, (alice, bob, carol) = club_of(sqlite_url, ("alice", "bob", "carol"))
    long_ago = utcnow() - timedelta(days=120)
    with store.session() as db:  # three established players; carol has been away
        for person, rating, updated in (
            (alice, 1700, utcnow()),
            (bob, 1600, utcnow()),
            (carol, 1800, long_ago),
        ):
            db.add(
                Rating(
                    user_id=person.id,
                    pool="toy",
                    rating=rating,
                    deviation=60,
                    volatility=0.06,
                    games=40,
                    wins=20,
                    draws=0,
                    losses=20,
                    updated=updated,
                )
            )
        db.commit()
    with store.session() as db:
        board = top_players(db, "toy", 10)
    assert [e["name"] for e in board] == ["alice", "bob", "carol"]  # carol is provisional now
    assert [e["rank"] for e in board] == [1, 2, None]
    assert board[2]["provisional"] and board[2]["shown"] == "1800?" and board[2]["deviation"] > 110

    pk = toy_game(service, carol, alice)
    service.resign(pk, alice)  # carol wins, rated from her grown deviation
    away = glicko2.Player(1800, 60, 0.06)
    for _ in range(120):
        away.did_not_compete()
    c, a = glicko(glicko2.Player(1800, away.rd, 0.06), glicko2.Player(1700, 60, 0.06), 1.0)
    stored = ratings_of(store, "toy")
    assert_matches(stored[carol.id], c)
    assert_matches(stored[alice.id], a)
    store.dispose()


# --- through a real server -----------------------------------------------------------------------
def create_rated(client, seats, game="toy", players=None):
    data = {"csrf": page_csrf(client), "game": game, "rated": "on"}
    if players is not None:
        data["players"] = str(players)
    for i, (kind, extra) in enumerate(seats):
        data[f"seat{i}"] = kind
        data[f"seat{i}_user" if kind == "user" else f"seat{i}_bot"] = extra
    return client.post("/games", data=data, follow_redirects=False)


def test_rated_game_reaches_the_leaderboard_and_profiles(make_user, anon):
    a, b = make_user("rated"), make_user("rated")
    r = create_rated(a, [("me", ""), ("user", b.name)])
    assert r.status_code == 303, r.text
    pk = int(r.headers["location"].rsplit("/", 1)[1])
    r = b.post(f"/games/{pk}/join", data={"csrf": page_csrf(b)}, follow_redirects=False)
    assert r.status_code == 303
    movers = []
    for text in WIN_FOR_FIRST:
        mover = a if view(a, pk)["your_turn"] else b
        movers.append(mover)
        r = move(mover, pk, text)
        assert r.status_code == 200, r.text
    assert view(a, pk)["status"] == "finished"
    winner, loser = movers[0], movers[1]
    won, lost = glicko(glicko2.Player(), glicko2.Player(), 1.0)
    won_text, lost_text = f"{round(won.rating)}?", f"{round(lost.rating)}?"

    board = anon.get("/leaderboard/toy")
    assert board.status_code == 200
    rows = board.text.split('data-player="')[1:]
    assert [row.split('"', 1)[0] for row in rows] == [winner.name, loser.name]
    assert won_text in rows[0] and lost_text in rows[1] and "provisional" in rows[0]
    everything = anon.get("/leaderboard")
    assert everything.status_code == 200
    assert 'data-pool="toy"' in everything.text and winner.name in everything.text
    assert 'data-pool="hexagone-multi"' in everything.text

    page = anon.get(f"/users/{winner.name}")
    assert page.status_code == 200
    assert won_text in page.text and "provisional" in page.text
    assert f'href="/games/{pk}/replay"' in page.text
    assert f'href="/users/{loser.name}"' in page.text
    assert '<svg class="plot"' in page.text and 'id="rating-numbers"' in page.text
    plot = anon.get(f"/users/{winner.name}/ratings.svg")
    assert plot.status_code == 200 and plot.headers["content-type"] == "image/svg+xml"
    assert plot.text.startswith("<svg") and "</text>" in plot.text
    old = anon.get(f"/users/{winner.name}/ratings.png", follow_redirects=False)
    assert old.status_code == 301 and old.headers["location"].endswith("/ratings.svg")

    game_page = anon.get(f"/games/{pk}")
    assert game_page.status_code == 200
    assert f'href="/users/{winner.name}"' in game_page.text and won_text in game_page.text
    lobby = winner.get("/")
    assert f'href="/users/{loser.name}"' in lobby.text  # finished games link the players


def test_unknown_players_and_pools_are_clear_404s(anon):
    r = anon.get("/users/nobody-here")
    assert r.status_code == 404
    assert "There is no player called 'nobody-here'" in html.unescape(r.text)
    for plot in ("ratings.svg", "ratings.png"):
        assert anon.get(f"/users/nobody-here/{plot}").status_code == 404
    r = anon.get("/leaderboard/chess")
    assert r.status_code == 404
    assert "There is no leaderboard called 'chess'" in html.unescape(r.text)
    assert "Traceback" not in r.text


def test_the_server_refuses_a_rated_game_with_the_computer(make_user):
    a = make_user("robot")
    r = create_rated(a, [("me", ""), ("bot", "random")])
    assert r.status_code == 400
    assert "A game with a computer seat cannot be rated." in r.text
    assert a.get("/").text.count("computer (random)") == 0  # no game was made


def test_the_profile_plot_shows_in_a_real_browser(make_user, server, browser, tmp_path):
    a, b = make_user("plot"), make_user("plot")
    r = create_rated(a, [("me", ""), ("user", b.name)])
    pk = int(r.headers["location"].rsplit("/", 1)[1])
    b.post(f"/games/{pk}/join", data={"csrf": page_csrf(b)}, follow_redirects=False)
    r = a.post(f"/games/{pk}/resign", data={"csrf": page_csrf(a)}, follow_redirects=False)
    assert r.status_code == 303
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server.base}/games/{pk}/replay")
    page.click(f'a.player[href="/users/{b.name}"]')  # names link to profiles
    box = page.wait_for_selector(".rating-plot svg.plot").bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 250  # drawn, not empty
    assert page.inner_text(".profile-name") == b.name
    page.click("header nav >> text=Leaderboard")
    page.wait_for_selector('section[data-pool="toy"]')
    assert b.name in page.inner_text('section[data-pool="toy"] table')
    page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
    page.close()


def test_the_game_page_shows_the_new_ratings_when_a_rated_game_ends(browser, server, make_user):
    """A spectator's page in Chromium: the players' line gains the ratings the game has just
    set, live, without a reload; the websocket sends that line only when play is over."""
    from tests.web.round.test_websocket import receive, socket_for

    a, b = make_user("live"), make_user("live")
    r = create_rated(a, [("me", ""), ("user", b.name)])
    pk = int(r.headers["location"].rsplit("/", 1)[1])
    assert b.post(f"/games/{pk}/join", data={"csrf": page_csrf(b)}).status_code == 303
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/games/{pk}")
    page.wait_for_selector("#play[data-live='1']")
    assert page.inner_text("#players") == f"Rated: {a.name} · {b.name}"  # no ratings yet
    with socket_for(server, b, pk) as ws:
        assert "players_line" not in receive(ws, "state")  # during play: not sent
        movers = []
        for text in WIN_FOR_FIRST:
            mover = a if view(a, pk)["your_turn"] else b
            movers.append(mover)
            assert move(mover, pk, text).status_code == 200
        while (last := receive(ws, "state"))["status"] != "finished":
            assert "players_line" not in last
    won, lost = glicko(glicko2.Player(), glicko2.Player(), 1.0)
    shown_now = {movers[0].name: f"{round(won.rating)}?", movers[1].name: f"{round(lost.rating)}?"}
    assert last["players_line"] == {
        "rated": True,
        "players": [
            {"index": i, "name": c.name, "rating": shown_now[c.name]} for i, c in enumerate((a, b))
        ],
    }
    expected = f"Rated: {a.name} {shown_now[a.name]} · {b.name} {shown_now[b.name]}"
    page.wait_for_function(
        "text => document.getElementById('players').innerText === text", arg=expected
    )
    assert page.locator("#players a").first.get_attribute("href") == f"/users/{a.name}"
    context.close()
