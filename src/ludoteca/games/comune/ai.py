"""What the bots know of Comune: a turn is searched one placement at a time.

A Comune turn places up to two pieces, so a position can have thousands of turns; a search
that treats each turn as one move spreads its simulations so thin that it learns nothing.
Stepping splits every turn into a short sequence of parts (first placement, then second
placement or ``end``; ``pass`` alone), so the tree shares what it learns about a first
placement among every turn that starts with it. The sequences are prefix-free thanks to the
explicit end marker.

The search also keeps RAVE statistics by placement (:func:`amaf_index`): in Comune a
placement made later in a simulation says much of making it now, since the score counts
groups, not the order they grew in. With them, and with playouts that grow groups
(``grow``, see :func:`playout`) and a lower exploration constant,
the search at 1,000 simulations a move beat the plain one 94-4 with 2 draws, and at 200
simulations 93-6 with 1 draw (``ludoteca arena comune
mcts:iterations=1000,rave=0,playout=uniform,c=0.7 mcts:iterations=1000 --games 100 --jobs
2 --seed 5``, and the same with 200).

:func:`steps` maps a whole turn to its parts; :class:`TurnParts` lists the parts of a
position directly from the engine's single placements, one level at a time, instead of from
every whole turn (a search expands few of them).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import partial
from typing import TYPE_CHECKING

from ludoteca.core.ai import LazyMoves, LazySteps, SearchKnowledge
from ludoteca.core.protocol import Move, State

from .flat import OVER

if TYPE_CHECKING:
    from .state import ComuneState

from .geometry import NUM_CELLS
from .notation import decode_turn, encode_turn, placement_code

END = "end"
PASS = "pass"


def steps(move: Move) -> tuple[Hashable, ...]:
    """A Comune turn as its placements in the engine's canonical order, then ``end``."""
    codes = decode_turn(move)
    if not codes:
        return (PASS,)
    if len(codes) == 1:
        return (codes[0], END)
    return tuple(codes)


class TurnParts:
    """Comune's turns as parts, asked of the engine's single placements as the search goes.

    The same parts as :func:`steps`, but listed from ``legal_placements()`` one level at a
    time. The engine's mid-turn list is what keeps each two-piece turn reachable by exactly
    one order of parts.

    A search keeps one of these per position it expands, so it holds as little as it can: a
    copy of the position without its undo history, and no reference back to itself (the
    search pauses the cycle collector, so a cycle here would outlive the tree).
    """

    __slots__ = ("next_steps", "moves")

    def __init__(self, state: State) -> None:
        self.next_steps = LazySteps(partial(_following, state.detached()))  # type: ignore[attr-defined]
        self.moves = LazyMoves(_complete)


def _following(root, prefix: tuple) -> list[Hashable]:
    """The parts that may follow ``prefix`` in ``root``'s turn."""
    if not prefix:
        return [placement_code(c, a) for c, a in root.legal_placements()] + [PASS]
    if len(prefix) == 1 and prefix[0] != PASS:
        probe = root.clone()
        probe.place(*divmod(prefix[0], 3))
        if not probe.mid_turn:  # the opening, or the last piece: one piece only
            return [END]
        return [END] + [placement_code(c, a) for c, a in probe.legal_placements()]
    return []


def _complete(prefix: tuple) -> Move | None:
    """The whole turn the parts ``prefix`` make, or ``None`` if they do not end a turn."""
    if prefix == (PASS,):
        return encode_turn(())
    if len(prefix) == 2:
        return encode_turn(prefix[:1] if prefix[1] == END else prefix)
    return None


PLACEMENTS = 3 * NUM_CELLS
"""Placement codes (``3 * cell + angle``) run below this; ``end`` and ``pass`` follow."""


def amaf_index(part: Hashable) -> int:
    """A part of a turn as RAVE's statistics know it: a placement by its code, then ``end``
    and ``pass``. A placement made later in a simulation says much of making it now: the
    score counts groups, not the order in which they grew."""
    if part == END:
        return PLACEMENTS
    if part == PASS:
        return PLACEMENTS + 1
    assert isinstance(part, int)
    return part


GROW_DRAWS = 4
"""How many placements the ``grow`` playout draws to keep the one with the most own
pieces of its angle around it. At 1,000 simulations a move, ``playout=grow`` scored 57.5%
with 2 and 59.5% with 4 against uniform playouts over 100 games each (``ludoteca arena
comune mcts:iterations=1000 mcts:iterations=1000,playout=grow --games 100 --seed 5``)."""


def playout(
    state: ComuneState,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """Payoffs of one random playout by the compiled kernel (state unchanged).

    Policy: each turn places as many pieces as allowed, uniformly (see :mod:`.jit`);
    ``"grow"`` takes each placement as the best of :data:`GROW_DRAWS` draws by the
    player's pieces at its angle around it. ``best_of`` is not Comune's (its knowledge
    does not offer it).
    """
    slots = state._s
    if slots[OVER]:
        result = state.result
        assert result is not None
        return result.payoffs()
    from . import jit

    k = GROW_DRAWS if policy == "grow" else 1
    trace = jit.NO_TRACE if amaf is None else jit.new_trace()
    win, _ = jit.compiled().search_playout(jit.to_array(slots), rng.getrandbits(63), k, trace)
    if amaf is not None:
        notes = trace[1 : 1 + trace[0]]
        amaf.extend(zip((notes >> 8).tolist(), (notes & 255).tolist(), strict=True))
    if win < 0:
        return (0.5, 0.5)
    return (1.0, 0.0) if win == 0 else (0.0, 1.0)


KNOWLEDGE = SearchKnowledge(
    playout=playout,
    playout_policies=("uniform", "grow"),
    steps=steps,
    lazy_steps=TurnParts,
    amaf_size=PLACEMENTS + 2,
    amaf_index=amaf_index,
    rave=300,
    playout_policy="grow",
    exploration=0.35,
)
