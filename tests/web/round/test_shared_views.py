"""A view is its shared part (drawn and encoded once per version of the game, however many
watch) joined with each watcher's own part: the same JSON as the whole view, and the board
drawn once for any number of watchers."""

from __future__ import annotations

import json

from ludoteca.core.registry import get
from ludoteca.web.infra.store import GameRow, Seat, User
from ludoteca.web.round import view as views


def game(ply: int = 0) -> tuple[GameRow, object]:
    state = get("kuniumi").new_state(seed=1)
    row = GameRow(
        id=900 + ply,
        game="kuniumi",
        status="active",
        ply=ply,
        private=False,
        result=None,
        clock=None,
        seats=[
            Seat(index=0, kind="user", user_id=1, resigned=False, timed_out=False),
            Seat(index=1, kind="user", user_id=2, resigned=False, timed_out=False),
        ],
    )
    return row, state


def test_joined_text_is_the_whole_view():
    """The text joins the kept shared part and the personal part; it holds what the merged
    dict holds, and it is safe inside a page's script element."""
    row, state = game()
    for viewer in (User(id=1, name="a"), User(id=2, name="b"), None):
        whole, text = views.page_view(row, state, [], viewer)
        parsed = json.loads(text)
        parsed.pop("clock"), whole.pop("clock")
        assert parsed == json.loads(json.dumps(whole))
        safe = str(views.script_json(text))
        assert "<" not in safe and ">" not in safe and "&" not in safe and "<svg" in text
        assert json.loads(safe) == {**parsed, "clock": json.loads(safe)["clock"]}


def test_the_board_is_drawn_once_per_version(monkeypatch):
    drawn = []
    real = views.board_svg
    monkeypatch.setattr(
        views,
        "board_svg",
        lambda state, highlight=(), translate=str: drawn.append(1) or real(state),
    )
    row, state = game(ply=1)
    for viewer in [User(id=1, name="a"), User(id=2, name="b"), *[None] * 20]:
        views.page_view(row, state, [], viewer)
    assert len(drawn) == 1
    row.ply = 2  # another version: drawn again
    views.page_view(row, state, [], None)
    assert len(drawn) == 2


def test_the_moves_are_listed_in_each_readers_language(monkeypatch):
    """Each move's side and stored note come in the reader's language, the note read from
    its stored JSON once per language and process, not again at every view."""
    import random

    from ludoteca.core.messages import Text, to_stored
    from ludoteca.web.i18n.catalogs import language
    from ludoteca.web.round.service import PlayedMove

    row, state = game()
    played, rng = [], random.Random(1)
    for ply in range(3):
        player = state.to_move
        move = rng.choice(list(state.legal_moves()))
        text = state.move_to_str(move)
        state.play(move)
        note = state.last_move_summary()
        assert isinstance(note, Text)
        played.append(PlayedMove(ply, text, player, to_stored(note)))
    read = []
    real = views.from_stored
    monkeypatch.setattr(views, "from_stored", lambda s: read.append(s) or real(s))
    monkeypatch.setattr(views, "_NOTES", {})
    english, german = language("en"), language("de")
    for _ in range(3):
        en = views.moves_list(state, played, english)
        de = views.moves_list(state, played, german)
    assert [m["note"] for m in en] == [str(real(p.note)) for p in played]
    assert [m["note"] for m in de] == [german.text(real(p.note)) for p in played]
    assert [m["side"] for m in de] == [german.text(state.side_name(p.player)) for p in played]
    assert en[0]["note"] != de[0]["note"] and en[0]["side"] != de[0]["side"]
    assert len(read) == 2 * len(played)  # once per note and language, over three views each


def test_the_moves_offered_are_made_once_per_position_and_language(monkeypatch):
    """The player to move is offered the position's moves, made once per position (ply),
    form and language however often their view is asked for, and in that language."""
    from ludoteca.web.i18n.catalogs import language

    made = []
    real = views.offered_move
    monkeypatch.setattr(views, "offered_move", lambda s, m: made.append(m) or real(s, m))
    monkeypatch.setattr(views, "_OFFERS", type(views._OFFERS)())
    row, state = game(ply=7)
    mover = User(id=state.to_move + 1, name="mover")
    english, german = language("en"), language("de")
    for _ in range(3):
        en = views.page_view(row, state, [], mover, english)[0]
        de = views.page_view(row, state, [], mover, german)[0]
    moves = list(state.legal_moves())
    assert len(made) == 2 * len(moves)  # once in each language, over three views each
    assert [m["text"] for m in en["legal"]] == [state.move_to_str(m) for m in moves]
    assert [m["label"] for m in de["legal"]] == [german.text(state.move_label(m)) for m in moves]
    assert en["legal"] != de["legal"]
    watcher = views.page_view(row, state, [], User(id=99, name="w"), english)[0]
    assert watcher["legal"] == () and not watcher["your_turn"]
    row.ply = 8  # another position: made again
    views.page_view(row, state, [], mover, english)
    assert len(made) == 3 * len(moves)
