"""The result in the reader's own words: won or lost with the scores, a draw, a place of n,
a resignation or a time-out; nothing for watchers."""

from __future__ import annotations

from ludoteca.core.registry import get
from ludoteca.web.infra.store import GameRow, Seat, User
from ludoteca.web.round.view import result_for


def row(result: dict, n: int = 2) -> GameRow:
    seats = [Seat(index=i, kind="user", user_id=10 + i) for i in range(n)]
    return GameRow(id=1, status="finished", result={"over": True, **result}, seats=seats)


def you(i: int) -> User:
    return User(id=10 + i, name=f"p{i}")


def test_two_players():
    state = get("comune").new_state(seed=1)
    won = row({"winners": [0], "draw": False, "scores": [540, 99]})
    assert result_for(won, state, you(0)) == "You won 540 to 99"
    assert result_for(won, state, you(1)) == "You lost 99 to 540"
    assert result_for(won, state, User(id=99, name="watcher")) == ""
    assert result_for(won, state, None) == ""
    drawn = row({"winners": [], "draw": True, "scores": [50, 50]})
    assert result_for(drawn, state, you(1)) == "Draw, 50 to 50"
    resigned = row({"ended": "resignation", "resigned": [1], "winners": [0], "draw": False})
    assert result_for(resigned, state, you(1)) == "You resigned"
    assert result_for(resigned, state, you(0)) == "You won"
    timed = row({"ended": "timeout", "timed_out": [0], "winners": [1], "draw": False})
    assert result_for(timed, state, you(0)) == "You ran out of time"
    active = row({"winners": [0]})
    active.status = "active"
    assert result_for(active, state, you(0)) == ""


def test_places_of_four():
    state = get("hexagone", players=4).new_state(seed=1)
    game = row({"winners": [2], "draw": False, "scores": [3, 7, 9, 7]}, n=4)
    assert result_for(game, state, you(2)) == "You came 1st of 4"
    assert result_for(game, state, you(1)) == "You came 2nd of 4"
    assert result_for(game, state, you(3)) == "You came 2nd of 4"
    assert result_for(game, state, you(0)) == "You came 4th of 4"
