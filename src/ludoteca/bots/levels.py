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

from collections.abc import Callable
from dataclasses import dataclass

from ludoteca.core.messages import N_
from ludoteca.core.protocol import Move, State

from .base import Bot


@dataclass(frozen=True)
class Level:
    name: str
    about: str
    """What the level is for, in English (a message id: front ends translate it)."""
    spec: str

    def spec_for(self, state: State) -> str:
        """The spec this level plays in ``state``'s game: the game's own for this level
        where its search knowledge names one (:attr:`~ludoteca.core.ai.SearchKnowledge.
        level_specs`), else the standard one."""
        knowledge = state.game.search_knowledge()
        return knowledge.level_spec(self.name, state.num_players, self.spec)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        # each game may play a level its own way (its ai.py's level_specs): the words say
        # what the level is for, the same for every game
        Level(
            "easy",
            N_("takes what looks best right now, without looking ahead: a fair first game"),
            "greedy",
        ),
        Level(
            "medium", N_("looks ahead a little: for players who know the game"), "mcts:seconds=0.25"
        ),
        Level("hard", N_("searches about a second a move: a strong player"), "mcts:seconds=1"),
        Level("master", N_("searches several seconds a move: the strongest"), "mcts:seconds=4"),
    )
}
"""The levels by name: what each is for (the one description every front end shows, in the
reader's language) and the standard bot spec behind it."""

RANDOM_ABOUT = N_("plays any legal move at random: for learning the rules")
"""What the ``random`` bot, offered beside the levels, is for."""


class LevelBot(Bot):
    """A named level: delegates to the level's bot for the game it is asked about, made by
    ``make`` (``spec, seed -> Bot``; :func:`ludoteca.bots.registry.make_bot`, handed in by
    the registry that lists the levels)."""

    def __init__(
        self, level: Level, make: Callable[[str, int | None], Bot], seed=None, **budget
    ) -> None:
        super().__init__(seed, **budget)
        self.level = level
        self._make = make
        self.name = level.name
        self._bots: dict[str, Bot] = {}

    def bot_for(self, state: State) -> Bot:
        spec = self.level.spec_for(state)
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = self._make(spec, self.seed)
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
