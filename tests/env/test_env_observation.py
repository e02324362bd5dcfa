"""Observation tensors: their layout, their content, and what they do not depend on."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ludoteca.core import get
from ludoteca.env.actions import Play
from ludoteca.env.observation import HIGH, LOW, Observer

from .common import GAMES, IDS, random_positions


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_every_position_encodes_within_the_layout(name, options):
    game = get(name, **options)
    observer = Observer(game)
    for play in random_positions(name, options, seed=4, every=3):
        for player in range(game.num_players):
            flat = observer.encode(play.state, player, play.prefix)
            assert flat.shape == (observer.size,) and flat.dtype == np.float32
            assert np.isfinite(flat).all() and (flat >= LOW).all() and (flat <= HIGH).all()
            again = np.full(observer.size, 7.0, np.float32)
            observer.fill(again, play.state, player, play.prefix)
            assert (again == flat).all()


def test_comune_pieces_are_seen_from_each_side():
    game = get("comune")
    observer = Observer(game)
    play = Play.new(game)
    play.apply(90)  # e5-: Light's first piece
    light = observer.views(observer.encode(play.state, 0, play.prefix))
    assert light["pending"][0, 4, 4] == 1 and light["pieces"].sum() == 0
    play.apply(183)  # end the turn
    light = observer.views(observer.encode(play.state, 0))
    dark = observer.views(observer.encode(play.state, 1))
    assert light["pieces"][0, 4, 4] == 1 and light["pieces"].sum() == 1
    assert dark["pieces"][3, 4, 4] == 1 and dark["pieces"].sum() == 1
    assert light["board"].sum() == 61
    assert dark["features"][4] == 1 and light["features"][4] == 0  # Dark to move


def test_kuniumi_planes():
    game = get("kuniumi")
    observer = Observer(game)
    state = game.from_position("6/6/6/6/6/6 setup")
    state.play("E@c3")
    view = observer.views(observer.encode(state, 0))
    assert view["pieces"][0, 2, 2] == 1  # Earth God on c3: rank 3, file c
    assert view["pieces"][4].sum() == 35
    assert view["features"][0] == 1 and view["features"][7 + 1] == 1  # set-up; Sea God next


def test_comino_table_and_hands():
    game = get("comino")
    observer = Observer(game)
    state = game.from_position("BRYY@0,0 YYYY RRRR 0 0 1")
    view = observer.views(observer.encode(state, 1))
    assert view["squares"].sum() == 1 and view["squares"][22, 22] == 1
    assert view["points"].sum() == 4
    # BRYY clockwise from the top-left: blue at point (0, 1), red at (1, 1), yellow below
    assert view["points"][0, 22, 23] == 1
    assert view["points"][1, 23, 23] == 1
    assert view["points"][2, 23, 22] == 1 and view["points"][2, 22, 22] == 1
    assert view["own_hand"].sum() == 1 and view["other_hand"].sum() == 1


def test_hexagone_looks_the_same_wherever_the_block_lies():
    """The frame follows the block: a translated position has the same ids and tensor."""
    game = get("hexagone", players=2)
    observer = Observer(game)
    for play in random_positions("hexagone", {"players": 2}, seed=6, every=25):
        if play.is_over:
            break
        data = json.loads(play.state.position())
        shifted = dict(data)
        shifted["cells"] = {
            f"{int(k.split(',')[0]) + 7},{int(k.split(',')[1]) - 5}": v
            for k, v in data["cells"].items()
        }
        other = Play(play.space, game.from_position(json.dumps(shifted)))
        assert other.legal_actions() == play.legal_actions()
        for player in (0, 1):
            a = observer.encode(play.state, player)
            b = observer.encode(other.state, player)
            assert (a == b).all()


def test_comino_scores_past_the_scale_stay_within_the_bounds():
    game = get("comino")
    play = Play.new(game, seed=2)
    while play.to_move < 0 or play.state.turns == 0:
        play.apply(play.chance_outcomes()[0][0] if play.to_move < 0 else play.legal_actions()[0])
    parts = play.state.position().split(" ")
    parts[-3:-1] = ["180", "40"]  # the scores: the first past the scale
    state = game.from_position(" ".join(parts))
    flat = Observer(game).encode(state, 0)
    features = Observer(game).views(flat)["features"]
    assert features[0] == HIGH and features[1] == np.float32(0.4)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_hexagone_tensor_is_the_position_written_out(players):
    """The tensor Hexagone writes from what it keeps (the cells' ids per set of cells, the
    small pieces per value) is the position written out piece by piece, for every player at
    every step of random games, a swap's first cell or a placement's colour under way too."""
    game = get("hexagone", players=players)
    observer = Observer(game)
    rng = np.random.default_rng(players)
    play = Play.new(game, seed=11)
    seen = set()
    while not play.is_over:
        state = play.state
        for player in range(players):
            _assert_hexagone_written_out(observer, state, player, play.prefix)
        seen.add((state.phase, bool(play.prefix)))
        legal = play.legal_actions()
        play.apply(legal[rng.integers(len(legal))])
    assert {("swap", True), ("reform", True), ("roll", False)} <= seen


@pytest.mark.parametrize("players", [1, 2, 3])
def test_hexagone_pieces_kept_follow_play_undo_and_clones(players):
    """What Hexagone's observation keeps with the state's pieces (``pieces_kept``: the
    frame's offsets, the piles and pool as each player sees them, shared by clones until a
    piece moves) and with its colours (``colours_kept``: the board's ones, until a swap) is
    at every position what a fresh computation gives, through random games played forward
    and taken back, and clones moving apart; the tensor is the position. So are the frame
    and the touching pairs' first ids the swap decision keeps there, and its first ids."""
    import random

    from ludoteca.core.playout import sample_chance
    from ludoteca.env.actions import TrieDecision, space_for
    from ludoteca.games.hexagone.actions import Frame, SwapDecision, cell_id

    def check(state):
        for player in range(players):
            _assert_hexagone_written_out(observer, state, player, ())
        fresh = Frame(tuple(state.cells)).offsets().tolist()  # not a kept frame
        ones = [k * 44 * 44 + at for k, at in zip(state.cells.values(), fresh, strict=True)]
        assert state.colours_kept["board"].tolist() == ones, state.position()
        # the frame and the touching pairs' first ids the adapters keep there too
        kept = dict(state.pieces_kept)
        frame = kept.pop("frame", None)
        if frame is not None:
            assert frame.corner == Frame(tuple(state.cells)).corner, state.position()
            assert frame.offsets().tolist() == fresh, state.position()
        if state.phase == "swap":  # a swap's first ids, kept there, against every move's
            listed = TrieDecision(state.legal_moves(), space.encoder(state))
            assert SwapDecision(state).legal(()) == listed.legal(()), state.position()
            kept = dict(state.pieces_kept)
            kept.pop("frame", None)
        firsts = kept.pop("first ids", None)
        if firsts is not None:
            corner = Frame(tuple(state.cells)).corner
            assert firsts[1] == [
                cell_id(corner, m[1]) if m[1] in state.cells else -1 for m in firsts[0]
            ], state.position()
        assert len(kept) == players
        for player, (offsets, piles, count) in kept.items():
            assert offsets.tolist() == fresh, state.position()
            rows = [state.captured[(player + row) % players] for row in range(players)]
            rows += [[0] * 7] * (4 - players) + [state.pool]  # the pool after the piles
            assert piles == (np.array(rows, np.float32) / 6).tobytes()
            assert count == players

    def step(state):
        if state.to_move < 0:
            state.play(sample_chance(state, rng))
        else:
            state.play(rng.choice(state.legal_moves()))

    game = get("hexagone", players=players)
    observer = Observer(game)
    space = space_for(game)
    rng = random.Random(players)
    state = game.new_state(seed=players)
    moved = restored = 0
    for _ in range(1500):
        check(state)
        if state.is_over or (state._history and rng.random() < 0.3):
            before = len(state.cells)
            state.undo()
            restored += len(state.cells) != before  # a capture or a placement taken back
        else:
            if rng.random() < 0.1 and not state.is_over:  # a clone moving apart
                other = state.clone()
                step(other)
                check(other)
                check(state)
            before = len(state.cells)
            step(state)
            moved += 1
            if len(state.cells) != before and rng.random() < 0.5:  # and back at once
                check(state)
                state.undo()
                restored += 1
    assert moved > 700 and restored > 20


def _assert_hexagone_written_out(observer, state, player, prefix):
    """Hexagone's tensor of ``state`` as ``player`` sees it is the position written out
    piece by piece."""
    from ludoteca.games.hexagone.state import PHASES

    players = len(state.captured)
    cells = state.cells
    q0 = min(c >> 16 for c in cells) - 1 if cells else 0
    r0 = min(c & 0xFFFF for c in cells) - 1 if cells else 0
    want = observer.views(np.zeros(observer.size, np.float32))
    for c, k in cells.items():
        want["board"][k, (c >> 16) - q0, (c & 0xFFFF) - r0] = 1
    if prefix and prefix[0] < 44 * 44:
        want["selected"].flat[prefix[0]] = 1
    elif prefix:
        want["selected_colour"][prefix[0] - 44 * 44] = 1
    want["phase"][PHASES.index(state.phase)] = 1
    for k in state.dice or ():
        want["dice"][k] += 0.5
    for row in range(players):
        want["captured"][row] = np.array(state.captured[(player + row) % players]) / 6
    want["pool"][:] = np.array(state.pool) / 6
    want["features"][:] = [
        state.rolled / 2,
        (state.rolls_left or 0) / 15,
        state.since / 40,
        state.to_move == player,
        players / 4,
    ]
    got = observer.views(observer.encode(state, player, prefix))
    for name, value in want.items():
        assert (got[name] == value).all(), (name, state.position(), prefix)


def _every_step(name: str, seed: int, options: dict | None = None):
    """Each step of a random game through the action layer, chance drawn as offered:
    the positions between a move's steps too (a prefix under way)."""
    rng = np.random.default_rng(seed)
    play = Play.new(get(name, **(options or {})), seed=seed)
    while not play.is_over:
        if play.to_move < 0:
            outcomes = play.chance_outcomes()
            play.apply(outcomes[rng.integers(len(outcomes))][0])
            continue
        yield play
        legal = play.legal_actions()
        play.apply(legal[rng.integers(len(legal))])
    yield play


def test_comune_tensor_is_the_position_written_out():
    """The planes gathered from the unpacked boards and the features packed into the array's
    bytes are the position written out cell by cell, for both players at every step of a
    random game, a turn's first piece under way too."""
    from ludoteca.games.comune.actions import PLACEMENTS
    from ludoteca.games.comune.flat import PASSES, PIECES, SUPPLY, TO_MOVE
    from ludoteca.games.comune.geometry import CELLS

    game = get("comune")
    observer = Observer(game)
    pending_seen = 0
    for play in _every_step("comune", seed=3):
        s = play.state.slots()
        for player in (0, 1):
            want = observer.views(np.zeros(observer.size, np.float32))
            for i, (c, r) in enumerate(CELLS):
                want["board"][r, c] = 1
                for angle in range(3):
                    want["pieces"][angle, r, c] = s[PIECES + 3 * player + angle] >> i & 1
                    want["pieces"][3 + angle, r, c] = s[PIECES + 3 * (1 - player) + angle] >> i & 1
            if play.prefix and play.prefix[0] < PLACEMENTS:
                cell, angle = divmod(play.prefix[0], 3)
                c, r = CELLS[cell]
                want["pending"][angle, r, c] = 1
                pending_seen += 1
            want["features"][:] = [
                s[SUPPLY + player] / 35,
                s[SUPPLY + 1 - player] / 35,
                s[PASSES] / 2,
                play.state.is_opening,
                not play.state.is_over and s[TO_MOVE] == player,
                bool(play.prefix),
            ]
            got = observer.views(observer.encode(play.state, player, play.prefix))
            for name, value in want.items():
                assert (got[name] == value).all(), (name, play.state.position(), play.prefix)
    assert pending_seen


def test_comino_tensor_is_the_position_written_out():
    """The hands' places joined to the table's ones and the features packed into the array's
    bytes are the hands and counts written out tile by tile, for both players at every step
    of a random game."""
    from ludoteca.games.comino.geometry import TILES

    game = get("comino")
    observer = Observer(game)
    for play in _every_step("comino", seed=5):
        state = play.state
        for player in (0, 1):
            want = np.zeros(observer.size, np.float32)
            want[np.frombuffer(state.ones, np.int64)] = 1
            view = observer.views(want)
            view["own_hand"][:] = [t in state.hands[player] for t in TILES]
            view["other_hand"][:] = [t in state.hands[1 - player] for t in TILES]
            view["features"][:] = [
                min(state.score[player] / 100, 1),
                min(state.score[1 - player] / 100, 1),
                state.draws < 21,
                state.draws / 21,
                state.turns / 22,
                state.to_move == player,
            ]
            got = observer.encode(state, player, play.prefix)
            assert (got == want).all(), (state.position(), player)
            assert got.sum() > len(state.ones) // 8  # the table's ones and a hand at least


def test_hexagone_frames_offsets_are_their_cells_ids():
    """A frame's offsets worked out for all its cells at once are each cell's ``cell_id``,
    and a cell outside the frame is refused by name, as ``ids`` refuses it."""
    from ludoteca.games.hexagone.actions import Frame, cell_id
    from ludoteca.games.hexagone.geometry import cell

    for play in random_positions("hexagone", {"players": 3}, seed=8, every=5):
        cells = tuple(play.state.cells)
        frame = Frame(cells)
        want = [cell_id(frame.corner, c) for c in cells]
        assert frame.offsets().tolist() == want
    far = (cell(0, 0), cell(0, 1), cell(50, 0))  # 50 columns apart: wider than the frame
    with pytest.raises(ValueError, match="outside the frame"):
        Frame(far).offsets()
