"""Small pieces of the club checked directly: password rules, websocket message validation,
the table's generator, seat parsing."""

from __future__ import annotations

import pytest

from ludoteca.core.table import ply_rng as table_rng
from ludoteca.record import from_table
from ludoteca.web.accounts.service import AccountError, check_name, check_password
from ludoteca.web.infra.store import normalise_url
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.flood import MAX_WS_MESSAGE
from ludoteca.web.round.messages import validate_message


@pytest.mark.parametrize("name", ["a", "-x", "has space", "x" * 25, "bad/char", ""])
def test_bad_user_names_are_refused(name):
    with pytest.raises(AccountError, match="2 to 24 characters"):
        check_name(name)


def test_good_user_names_pass_trimmed():
    assert check_name("  Ada_L.ove-1 ") == "Ada_L.ove-1"


@pytest.mark.parametrize(
    ("password", "name"),
    [("short1!", "ada"), ("password1", "ada"), ("abababababab", "ada"), ("my-ada-pass", "ada")],
)
def test_weak_passwords_are_refused(password, name):
    with pytest.raises(AccountError, match="too weak"):
        check_password(password, name)


def test_too_long_password_is_refused():
    with pytest.raises(AccountError, match="at most"):
        check_password("Ab1!" * 100, "ada")


def test_decent_password_passes():
    check_password("correct horse battery", "ada")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[]", "JSON object"),
        ("nope", "JSON object"),
        ('{"type": "hack"}', "Unknown message type"),
        ('{"type": "move", "move": "a1"}', "CSRF"),
        ('{"type": "move", "csrf": "x"}', "needs 'move'"),
        ('{"type": "move", "move": "a1", "csrf": "x", "ply": true}', "whole number"),
        ('{"type": "move", "move": "a1", "csrf": "x"}', "send 'ply'"),
        ('{"type": "move", "move": "a1", "csrf": "x", "ply": -1}', "whole number"),
        ('{"type": "resign", "csrf": "x", "ply": "2"}', "whole number"),
        ('{"type": "resign"}', "CSRF"),
        ("x" * (MAX_WS_MESSAGE + 1), "too long"),
    ],
)
def test_websocket_messages_are_validated(raw, expected):
    with pytest.raises(ClubError, match=expected):
        validate_message(raw)


def test_valid_messages_pass():
    assert validate_message('{"type": "ping"}')["type"] == "ping"
    msg = validate_message('{"type": "move", "move": "a1", "csrf": "x", "ply": 3}')
    assert msg["move"] == "a1" and msg["ply"] == 3


def test_table_generator_depends_on_seed_and_ply_only():
    draws = lambda seed, ply: [table_rng(seed, ply).random() for _ in range(3)]  # noqa: E731
    assert draws(42, 7) == draws(42, 7)
    assert draws(42, 7) != draws(42, 8)
    assert draws(42, 7) != draws(43, 7)
    assert table_rng(1, 0, "bot").random() != table_rng(1, 0).random()


def test_postgres_urls_use_the_installed_driver():
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_a_bot_worker_is_handed_the_game_as_a_record_and_checks_it():
    """The worker rebuilds the game from its record with every check a record gets, so a job
    that does not replay is refused rather than searched."""
    import pytest

    from ludoteca.core.errors import RecordError
    from ludoteca.core.registry import get
    from ludoteca.core.table import Table
    from ludoteca.web.round.seats import BotJob, think_turn

    table = Table.new(get("kuniumi"), seed=3, players=["ann", "computer:random"])
    for text in ("E@c3", "S@d4", "l@a1"):
        table.play(text)
    job = BotJob(record=from_table(table), level="random", bot_seed=1)
    assert think_turn(job)[0] in {table.state.move_to_str(m) for m in table.state.legal_moves()}
    broken = from_table(table)
    broken.moves[1] = "S@c3"  # on the Earth God's square
    with pytest.raises(RecordError):
        think_turn(BotJob(record=broken, level="random", bot_seed=1))


def test_a_computer_turn_that_waited_for_a_worker_thinks_only_what_is_left_of_its_time():
    """A level's time counts from the move that made it the computer's turn: a turn that
    waited in the worker queue searches for what is left of it (at least a tenth), so the
    reply still comes within the level's time when the workers are busy."""
    import time

    from ludoteca.bots.mcts import warm_up
    from ludoteca.core.registry import get
    from ludoteca.core.table import Table
    from ludoteca.web.round.seats import MIN_THINK_SHARE, BotJob, think_seconds, think_turn

    assert think_seconds(1.0, None, 100.0) == 1.0
    assert think_seconds(1.0, 100.0, 100.25) == 0.75
    assert think_seconds(1.0, 100.0, 105.0) == MIN_THINK_SHARE
    assert think_seconds(1.0, 100.0, 99.0) == 1.0  # a clock a little behind gives no more
    table = Table.new(get("kuniumi"), seed=3, players=["ann", "computer:hard"])
    for text in ("E@c3", "S@d4", "l@a1"):
        table.play(text)
    warm_up(table.state)  # compiling the search's playout is not thinking
    job = BotJob(record=from_table(table), level="hard", bot_seed=1, asked_at=time.time() - 30)
    started = time.perf_counter()
    assert think_turn(job)[0] in {table.state.move_to_str(m) for m in table.state.legal_moves()}
    assert time.perf_counter() - started < 0.6  # hard searches 1 s; this turn only 0.1 s


def test_the_warm_up_at_start_makes_every_step_without_an_error(caplog):
    """What the server makes as it starts so that no first visit waits (``web/warm.py``):
    every step runs, none fails (a failure is only logged, and its page would pay again)."""
    import logging

    from ludoteca.web.kernel.requests import TEMPLATES
    from ludoteca.web.warm import warm_up

    made = []
    with caplog.at_level(logging.WARNING, logger="ludoteca.web"):
        warm_up(lambda: made.append("stats"))
    assert [r.getMessage() for r in caplog.records] == []
    assert made == ["stats"]
    assert TEMPLATES.env.cache is not None and len(TEMPLATES.env.cache) >= 30


def test_a_computer_replys_tree_is_freed_at_the_next_turn_not_on_the_way_back(monkeypatch):
    """Freeing a search tree takes milliseconds (more on a starved worker): it is done before
    the next turn's search, not after a reply's deadline as the move goes back."""
    import weakref

    import ludoteca.bots
    from ludoteca.core.registry import get
    from ludoteca.core.table import Table
    from ludoteca.record import from_table
    from ludoteca.web.round.seats import BotJob, think_turn

    made: list = []
    real = ludoteca.bots.make_bot

    def make_bot(*args, **kwargs):
        bot = real(*args, **kwargs)
        made.append(weakref.ref(bot))
        return bot

    monkeypatch.setattr(ludoteca.bots, "make_bot", make_bot)
    table = Table.new(get("kuniumi"), seed=3, players=["ann", "computer:random"])
    job = BotJob(record=from_table(table), level="random", bot_seed=1)
    think_turn(job)
    assert made[0]() is not None  # the reply is back; its bot is not freed yet
    think_turn(job)
    assert made[0]() is None and made[1]() is not None  # freed at the next turn


def test_the_first_bot_workers_have_sessions_of_their_own_the_others_share_one():
    """Each of the first ``own_sessions`` workers opens a session of its own; the others
    share their forkserver's, which is not the server's either (see ``seats.OWN_SESSIONS``).
    All yield to the server within a group."""
    import os

    from ludoteca.web.round.seats import WORKER_NICENESS, make_pool

    pool = make_pool("process", workers=3, own_sessions=1)
    try:  # three at once, so three workers: each job holds its worker a moment
        answers = [
            f.result(timeout=120) for f in [pool.submit(_session_and_nice, 1.0) for _ in "abc"]
        ]
    finally:
        pool.shutdown()
    assert len({pid for pid, *_ in answers}) == 3
    own = [pid for pid, _, session, _ in answers if session == pid]
    shared = [parent for _, parent, session, _ in answers if session == parent]
    assert len(own) == 1 and len(shared) == 2, answers  # the forkserver's session
    assert all(session != os.getsid(0) for _, _, session, _ in answers)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert all(nice == min(19, mine + WORKER_NICENESS) for *_, nice in answers)


def _session_and_nice(hold: float = 0.0) -> tuple[int, int, int, int]:
    import os
    import time

    time.sleep(hold)
    return os.getpid(), os.getppid(), os.getsid(0), os.getpriority(os.PRIO_PROCESS, 0)
