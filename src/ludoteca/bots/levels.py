"""Named strength levels for people: ``easy``, ``medium``, ``hard``, ``master``.

A level is a bot spec with a budget, chosen by what a person waits per move:

=========  ====================================  ==================================
level      bot                                   waiting time per move
=========  ====================================  ==================================
easy       ``greedy`` (best immediate position)   instant
medium     ``mcts:seconds=0.25``                  a quarter of a second
hard       ``mcts:seconds=1``                     one second
master     ``mcts:seconds=4``                     four seconds
=========  ====================================  ==================================

A game's ``ai.py`` ``LEVEL_SPECS`` names another spec where these would not be steps apart:
Hexagone with two to four players (``greedy:noise=0.6``, ``greedy:noise=0.25``, ``greedy``,
``mcts:seconds=0.25``: the dice decide so much that more search buys little), Kuniumi's medium
(``mcts:seconds=0.25,exact=0,playout=uniform``) and Comino's medium and master
(``mcts:seconds=0.05``, ``mcts:seconds=8``). Why, measured game by game with the commands
that reproduce it: the documentation's "How the levels were measured" (``docs/strength.md``).

The bot behind a level is made when the level first sees a game, so ``make_bot("hard")``
works for every game; budgets given to ``choose`` still override the level's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.core.protocol import Move, State

from .base import Bot


@dataclass(frozen=True)
class Level:
    name: str
    about: str
    spec: str

    def spec_for(self, state: State) -> str:
        """The spec this level plays in ``state``'s game: the game's own for this level
        where its search knowledge names one (:attr:`~ludoteca.core.ai.SearchKnowledge.
        level_specs`), else the standard one."""
        knowledge = state.game.search_knowledge()
        return knowledge.level_spec(self.name, state.num_players, self.spec)


def _level(name: str, about: str, spec: str) -> Level:
    return Level(name, about, spec)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        _level(
            "easy",
            "plays the move that looks best right now, without looking ahead "
            "(in Hexagone for 2-4, a random move six times in ten)",
            "greedy",
        ),
        _level(
            "medium",
            "searches a quarter of a second per move (a twentieth in Comino, "
            "whose search runs faster; in Hexagone for 2-4, the move that looks best, "
            "a random one a time in four)",
            "mcts:seconds=0.25",
        ),
        _level(
            "hard",
            "searches one second per move "
            "(in Hexagone for 2-4, the move that looks best right now)",
            "mcts:seconds=1",
        ),
        _level(
            "master",
            "searches four seconds per move (eight in Comino; "
            "a quarter of a second in Hexagone for 2-4)",
            "mcts:seconds=4",
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

    def warm_up(self, state: State) -> None:
        self.bot_for(state).warm_up(state)
