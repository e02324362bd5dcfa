"""Named strength levels for people: ``easy``, ``medium``, ``hard``, ``master``.

A level is a bot spec with a budget (per game where a game needs another bot). The budgets
are what a person waits per move:

=========  ====================================  ==================================
level      bot                                   waiting time per move
=========  ====================================  ==================================
easy       ``greedy`` (best immediate position)   instant
medium     ``mcts:seconds=0.25``                  a quarter of a second
hard       ``mcts:seconds=1``                     one second
master     ``mcts:seconds=4``                     four seconds
=========  ====================================  ==================================

Hexagone with two to four players is the exception (:data:`HEXAGONE_SPECS`): medium
``mcts:seconds=0.1``, hard ``mcts:seconds=0.25``, master ``mcts:seconds=1``. A game between
strong players there runs to some 330 moves, of which a computer player makes over a hundred
(each piece put back after a capture is a decision of its own), so four seconds a move is
several minutes of waiting per game, most of it spent on placements that hardly matter; and
a ladder that cannot be played a hundred times is a ladder nobody measures. The steps keep
the same ratios as elsewhere (about four times the time per level). The solo puzzle, some
35 decisions a game, keeps the standard budgets.

MCTS brings its per-game tuning (in Hexagone for two to four players, playouts cut at 6
moves and judged by each player's chance of ending with the most captures; in the solo
puzzle cut at 20 and scored by the captures, see :data:`ludoteca.bots.mcts.CUTOFFS`). In
the solo puzzle it maximises the expected captures: over 60 seeded solo games it averaged
29.8 captures at 0.1 s a move, against 25.5 for the rollout ``planner`` at 0.25 s and 21.6
for greedy (``ludoteca arena hexagone -o players=1 greedy mcts:seconds=0.1
planner:seconds=0.25 --games 60 --seed 43``), so the levels use it there too.

Measured in Kuniumi (``ludoteca arena kuniumi easy medium hard --games 10 --seed 21``):
medium beat easy 10-0, hard beat medium 8-1 with a draw; and master beat hard 27-8 with 5
draws over 40 games (``ludoteca arena kuniumi hard master --games 40 --seed 94``).

Measured in two-player Hexagone, 100 games a step on an otherwise idle machine
(``ludoteca arena hexagone --players 2 easy medium --games 100 --seed 101``; ``medium hard``
with ``--seed 102``; ``hard master`` with ``--seed 104``): medium beat easy 79-18 with 3
draws (80.5%), hard beat medium only 53-44 with 3 draws (54.5%), and master and hard were
even, 50-47 with 3 draws (51.5%). The dice decide much of a Hexagone game, and past a tenth
of a second more search buys little: at 0.02 and 0.04 s a move MCTS scored 62.5% and 66%
against greedy, 0.04 s scored 56.5% against 0.02 s (``ludoteca arena hexagone --players 2
easy mcts:seconds=0.02 mcts:seconds=0.04 --games 100 --seed 105``), and at 1 s it scored
78.75% against greedy (``--seed 103``, 40 games), no more than at 0.1 s. So in Hexagone
these levels are one clear step above greedy, and hard and master are hardly stronger than
medium.

The bot behind a level is made when the level first sees a game, so ``make_bot("hard")``
works for every game; budgets given to ``choose`` still override the level's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludoteca.core.protocol import Move, State

from .base import Bot, for_game


@dataclass(frozen=True)
class Level:
    name: str
    about: str
    spec: str
    per_game: dict[str, str] = field(default_factory=dict)
    """Game id (``hexagone``, or ``hexagone/solo`` for one player) -> spec."""

    def spec_for(self, state: State) -> str:
        return for_game(self.per_game, state, self.spec)


HEXAGONE_SPECS = {
    "medium": "mcts:seconds=0.1",
    "hard": "mcts:seconds=0.25",
    "master": "mcts:seconds=1",
}
"""Level budgets in Hexagone with two to four players (see the module text)."""


def _hexagone(name: str, spec: str) -> dict[str, str]:
    return {"hexagone": HEXAGONE_SPECS[name], "hexagone/solo": spec}


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", "plays the move that looks best right now, without looking ahead", "greedy"),
        Level(
            "medium",
            "searches a quarter of a second per move (a tenth in Hexagone for 2-4)",
            "mcts:seconds=0.25",
            _hexagone("medium", "mcts:seconds=0.25"),
        ),
        Level(
            "hard",
            "searches one second per move (a quarter in Hexagone for 2-4)",
            "mcts:seconds=1",
            _hexagone("hard", "mcts:seconds=1"),
        ),
        Level(
            "master",
            "searches four seconds per move (one in Hexagone for 2-4)",
            "mcts:seconds=4",
            _hexagone("master", "mcts:seconds=4"),
        ),
    )
}


class LevelBot(Bot):
    """A named level: delegates to the level's bot for the game it is asked about."""

    def __init__(self, level: Level, seed=None, **budget) -> None:
        super().__init__(seed, **budget)
        self.level = level
        self.name = level.name
        self._bots: dict[str, Bot] = {}

    def bot_for(self, state: State) -> Bot:
        from .registry import make_bot

        spec = self.level.spec_for(state)
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = make_bot(spec, seed=self.seed)
        return bot

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        self._check(state)
        budget = self._budget(seconds, iterations, depth)
        return self.bot_for(state).choose(
            state, seconds=budget.seconds, iterations=budget.iterations, depth=budget.depth
        )

    def reset(self) -> None:
        for bot in self._bots.values():
            bot.reset()
