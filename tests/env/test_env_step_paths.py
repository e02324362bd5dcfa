"""The adapters' shortened step and observation paths give the answers of the long ones.

The driver keeps whose turn it is from one read after each play and plays an id that is
its own move straight on the engine; Comune lists its placement codes from tables and
Comune's and Kuniumi's observations are gathered from their boards' bits: each is held
here to what the engine says by its plainer accessors.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.core import get
from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.protocol import CHANCE
from ludoteca.env.actions import OutcomesById, Play, space_for
from ludoteca.env.observation import Observer
from ludoteca.env.openspiel import _listed
from ludoteca.env.pettingzoo import _mask, env
from ludoteca.games.comune.flat import PASSES
from ludoteca.games.comune.geometry import CELLS, cells_of, codes_of
from ludoteca.games.comune.notation import decode_turn, encode_turn
from ludoteca.games.kuniumi.flat import CHOOSE_PHASE, LAND, NO_SIDE, PLAY, SETUP

from .common import GAMES, IDS, random_positions


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_the_drivers_mover_is_the_engines_to_move(name, options):
    """Every step of a random game, its clones too: the mover kept is the engine's."""
    rng = random.Random(4)
    play = Play.new(get(name, **options), seed=4)
    while True:
        assert play.mover == play.state.to_move == play.clone().mover
        assert play.is_over == play.state.is_over
        if play.is_over:
            break
        play.apply(rng.choice(play.legal_actions()))


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_an_id_out_of_the_space_is_refused_in_words(name, options):
    """An id no action has is refused as illegal, the position unchanged (it used to fail
    with an ``IndexError`` where the refusal looked for the id's words)."""
    play = Play.new(get(name, **options), seed=3)
    while play.to_move < 0:  # a player to act: past a first deal or roll
        play.apply(play.legal_actions()[0])
    size = space_for(play.state.game).size
    before = (play.state.position(), play.prefix, play.to_move)
    for wrong in (-1, size, size + 99_999):
        with pytest.raises(IllegalMoveError, match="no action has this id"):
            play.apply(wrong)
        assert (play.state.position(), play.prefix, play.to_move) == before


def test_kuniumis_moves_come_ascending():
    """Kuniumi's space says its moves come ascending, so its decision keeps them unsorted."""
    for play in random_positions("kuniumi", {}, seed=6):
        moves = list(play.state.legal_moves())
        assert moves == sorted(moves)
        assert play.legal_actions() == moves


def test_kuniumis_mask_is_its_legal_moves():
    """Kuniumi's mask is set from the engine's bitboard of squares, no list made: it holds
    a one at each legal move's id and nowhere else (none once the game is over), and
    PettingZoo's observation gives it; every mask met is held to a list set id by id."""
    space = get("kuniumi").action_space()
    environment = env("kuniumi").unwrapped
    for play in random_positions("kuniumi", {}, seed=12):
        for state in (play.state, *_taken_back(play.state)):
            mask = np.frombuffer(space.legal_mask(state), np.int8)
            assert mask.tolist() == _mask(space.size, state.legal_moves()).tolist()
        environment.play = play
        if play.to_move >= 0:
            seen = environment.observe(f"player_{play.to_move}")["action_mask"]
            assert np.flatnonzero(seen).tolist() == play.legal_actions()
    assert play.is_over and not any(space.legal_mask(play.state))


def test_comunes_step_masks_are_its_turns_steps():
    """Comune's decision keeps each step's legal ids as the engine's masks, and gives from
    them the ids listed, PettingZoo's mask and the check of a step: each holds exactly the
    steps of the engine's whole turns cut after the prefix (a turn start, and every first
    placement), for every id of the space and a few outside it; a game over has none."""
    from ludoteca.games.comune.actions import turn_actions

    space = space_for(get("comune"))
    environment = env("comune").unwrapped
    ids = range(-2, space.size + 2)
    seconds_seen = 0
    for play in random_positions("comune", {}, seed=21, every=3):
        turns = [turn_actions(move) for move in play.state.legal_moves()]
        decision = space.decision(play.state)
        prefixes = [(), *sorted({(turn[0],) for turn in turns if len(turn) == 2})]
        for prefix in prefixes:
            steps = sorted({turn[len(prefix)] for turn in turns if turn[: len(prefix)] == prefix})
            assert decision.legal(prefix) == steps, (play.state.position(), prefix)
            assert np.flatnonzero(decision.mask(prefix)).tolist() == steps
            assert [i for i in ids if decision.allows(prefix, i)] == steps
            seconds_seen += bool(prefix)
        if play.to_move >= 0:
            environment.play = play
            seen = environment.observe(f"player_{play.to_move}")["action_mask"]
            assert np.flatnonzero(seen).tolist() == play.legal_actions()
    assert play.is_over and seconds_seen
    assert not space.decision(play.state).mask(()).any()


def _taken_back(state):
    """Copies of ``state`` with its last move or two taken back."""
    back = state.clone()
    for _ in range(2):
        if back._history:
            back.undo()
            yield back.clone()


def test_comunes_codes_are_each_cells_code():
    rng = random.Random(1)
    masks = [0, (1 << len(CELLS)) - 1] + [rng.getrandbits(len(CELLS)) for _ in range(200)]
    for mask in masks:
        for angle in range(3):
            assert codes_of(mask, angle) == tuple(cell * 3 + angle for cell in cells_of(mask))


def test_comunes_placement_codes_are_its_placements():
    for play in random_positions("comune", {}, seed=3):
        state = play.state
        codes = sorted(cell * 3 + angle for cell, angle in state.legal_placements())
        assert state.placement_codes() == codes


def test_a_comune_turns_value_is_the_same_in_either_order():
    """A turn of two pieces is one value whatever the order of its codes, its pieces
    decoded lowest angle first (then lowest cell)."""
    for x in range(len(CELLS) * 3):
        for y in range(len(CELLS) * 3):
            if x != y:
                value = encode_turn((x, y))
                assert value == encode_turn((y, x))
                assert decode_turn(value) == tuple(sorted((x, y), key=lambda c: (c % 3, c // 3)))


def test_comunes_observation_is_its_boards():
    game = get("comune")
    observer = Observer(game)
    grid = [9 * r + c for c, r in CELLS]
    for play in random_positions("comune", {}, seed=9):
        state = play.state
        for prefix in ((), *((code,) for code in play.legal_actions()[:2])):
            for player in (0, 1):
                view = observer.views(observer.encode(state, player, prefix))
                for k, (who, angle) in enumerate(
                    (p, a) for p in (player, 1 - player) for a in range(3)
                ):
                    plane = np.zeros(81)
                    plane[[grid[c] for c in cells_of(state.pieces(who, angle))]] = 1
                    assert (view["pieces"][k].reshape(-1) == plane).all()
                pending = np.zeros((3, 81))
                if prefix and prefix[0] < 183:
                    cell, angle = divmod(prefix[0], 3)
                    pending[angle, grid[cell]] = 1
                assert (view["pending"].reshape(3, 81) == pending).all()
                assert view["board"].reshape(-1)[grid].sum() == 61 == view["board"].sum()
                expected = [
                    state.supply(player) / 35,
                    state.supply(1 - player) / 35,
                    state.slots()[PASSES] / 2,
                    float(state.is_opening),
                    float(not state.is_over and state.to_move == player),
                    float(bool(prefix)),
                ]
                assert view["features"].tolist() == pytest.approx(expected)


def test_kuniumis_features_are_its_flags():
    game = get("kuniumi")
    observer = Observer(game)
    phases = {SETUP: 0, CHOOSE_PHASE: 1, PLAY: 2}
    for play in random_positions("kuniumi", {}, seed=10):
        state = play.state
        for player in (0, 1):
            expected = [0.0] * 13
            expected[phases[state.phase]] = 1
            if state.phase == PLAY:
                expected[3 + (state.side != LAND)] = 1
            if state.first != NO_SIDE:
                mine = state.first if player == 0 else 1 - state.first
                expected[5 + (mine != LAND)] = 1
            if state.next_setup_kind is not None:
                expected[7 + state.next_setup_kind] = 1
            expected[11] = player == 0
            expected[12] = state.to_move == player
            features = observer.views(observer.encode(state, player))["features"]
            assert features.tolist() == expected


@pytest.mark.parametrize("count", [0, 3, 40, 300, 1000])
def test_the_listed_tensor_and_the_mask_are_numpys(count):
    """A small or large, sparse or dense tensor listed as ``tolist`` lists it; a mask set
    as numpy sets it."""
    rng = np.random.default_rng(count)
    for size in (200, 1000):
        flat = np.zeros(size, np.float32)
        ones = min(count, size)
        flat[rng.choice(size, ones, replace=False)] = rng.random(ones, np.float32) + 0.5
        assert _listed(flat) == flat.tolist()
    legal = sorted(rng.choice(2000, count, replace=False).tolist())
    expected = np.zeros(2000, np.int8)
    expected[legal] = 1
    mask = _mask(2000, legal)
    assert mask.dtype == np.int8 and (mask == expected).all()
    mask[0] = 1  # the caller's own array


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_a_chance_nodes_ids_are_the_engines_outcomes_mapped_each_time(name, options):
    """At every chance node of random games (Hexagone's rolls kept per list of outcomes,
    the others worked out each time) the driver's ids, pairs and table are the engine's
    outcomes mapped afresh; a caller changing the lists it got changes nothing kept."""
    rng = random.Random(8)
    met = 0
    for seed in range(3):
        play = Play.new(get(name, **options), seed=seed)
        space = play.space
        while not play.is_over:
            if play.to_move == CHANCE:
                met += 1
                fresh = {space.chance_id(m): (m, p) for m, p in play.state.chance_outcomes()}
                pairs = play.chance_outcomes()
                ids = play.legal_actions()
                assert pairs == sorted((a, p) for a, (_, p) in fresh.items())
                assert ids == sorted(fresh)
                assert play.chance_table() == fresh
                pairs.clear()
                ids.append(-1)
                assert play.clone().chance_outcomes() == sorted(
                    (a, p) for a, (_, p) in fresh.items()
                )
                assert play.clone().legal_actions() == sorted(fresh)
            play.apply(rng.choice(play.legal_actions()))
    if name in ("comino", "hexagone"):
        assert met


def test_a_deals_outcomes_by_id_answer_as_a_dict_of_the_tiles_left():
    """Comino's draws by id are the engine's tuple indexed by the ids of the tiles left, no
    ``dict`` built: every way of reading it answers as that dict would, and a tile already
    drawn is no outcome (the driver refuses its id, the state unchanged)."""
    play = Play.new(get("comino"), seed=3)
    for _ in range(4):
        play.apply_chance(0)
    table = play.chance_table()
    assert isinstance(table, OutcomesById)
    left, chances, _ = play.state.deal_left()
    expected = {i: chances[i] for i in left}
    assert len(left) == 17 and table == expected and dict(table) == expected
    assert list(table) == sorted(expected) and len(table) == 17
    drawn = next(i for i in range(21) if i not in expected)
    assert drawn not in table and table.get(drawn) is None and table.get(drawn, 0) == 0
    with pytest.raises(KeyError):
        table[drawn]
    assert table[left[0]] == chances[left[0]] and table.get(left[-1]) == chances[left[-1]]
    before = play.state.position()
    with pytest.raises(IllegalMoveError):
        play.apply(drawn)
    assert play.state.position() == before and play.chance_table() == expected


class _WithoutChanceHook:
    """A game's space with its ``chance_entry`` hook hidden: the driver then maps the
    engine's list of outcomes itself (:func:`ludoteca.env.actions.outcomes_entry`), as it
    does for a plug-in's space that has no hook."""

    def __init__(self, space) -> None:
        self._space = space

    def __getattr__(self, name: str):
        if name == "chance_entry":
            raise AttributeError(name)
        return getattr(self._space, name)


@pytest.mark.parametrize("name", ["comino", "hexagone"])
def test_a_spaces_own_chance_entries_are_the_engines_outcomes_mapped(name):
    """Comino's draws and Hexagone's rolls come from the games' own ``chance_entry`` hooks;
    at every chance node of random games the same driver without the hook maps the engine's
    list to the same ids, pairs, table and probabilities, and plays the same outcome."""
    rng = random.Random(5)
    met = 0
    for seed in range(3):
        play = Play.new(get(name), seed=seed)
        assert play._own_chance is not None
        while not play.is_over:
            if play.to_move == CHANCE:
                met += 1
                plain = Play(_WithoutChanceHook(play.space), play.state.clone())
                assert plain._own_chance is None
                assert play.chance_outcomes() == plain.chance_outcomes()
                assert play.legal_actions() == plain.legal_actions()
                assert play.chance_table() == plain.chance_table()
                assert play.chance_probabilities() == plain.chance_probabilities()
                i = rng.randrange(len(play.chance_outcomes()))
                assert play.clone().apply_chance(i) == plain.apply_chance(i)
            play.apply(rng.choice(play.legal_actions()))
    assert met
