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

Hexagone with two to four players is the exception (its ``ai.py`` ``LEVEL_SPECS``):

=========  ====================================  ==================================
level      bot                                   waiting time per move
=========  ====================================  ==================================
easy       ``greedy:noise=0.6``                   instant
medium     ``greedy:noise=0.25``                  instant
hard       ``greedy``                             instant
master     ``mcts:seconds=0.25``                  a quarter of a second
=========  ====================================  ==================================

``noise`` is the share of moves played at random instead of the one that looks best. The
dice decide much of a Hexagone game, and past a few hundredths of a second more search buys
little, so levels that differ only in time are not levels: MCTS scored 62.5% against greedy
at 0.02 s a move and 66% at 0.04 s, 0.04 s scored 56.5% against 0.02 s (``ludoteca arena
hexagone --players 2 greedy mcts:seconds=0.02 mcts:seconds=0.04 --games 100 --seed 105``);
0.25 s scored 54.5% against 0.1 s (``--seed 102``) and 1 s 51.5% against 0.25 s (``--seed
104``), each over 100 games. But the gap from random to greedy is wide (greedy won 99 of
100 games, ``ludoteca arena hexagone --players 2 random greedy --games 100 --seed 111``),
so the levels below the search are greedy with a falling share of random moves, and master
is the search at a budget a person does not notice: a game runs to some 330 moves, of which
a computer player makes over a hundred (each piece put back after a capture is a decision of
its own). The solo puzzle, some 35 decisions a game, keeps the standard levels.

Measured in two-player Hexagone, 100 games a step (``ludoteca arena hexagone --players 2
easy medium --games 100 --jobs 2 --seed 115``; ``medium hard`` with ``--seed 116``; ``hard
master`` with ``--seed 114``): medium beat easy 81-19 (81%), hard beat medium 74-24 with 2
draws (75%), and master beat hard 83-15 with 2 draws (84%).

In Comino master used to differ: ``mcts:seconds=4,best_of=2``, whose playouts take each
placement as the better-scoring of two drawn at random (what follows is how it was chosen,
and below, why it was given up). The second player wins some three
games in four between equal players (75% over 40 games of ``ludoteca analyze comino --level
mcts:iterations=1000 --games 40 --seed 7``), and four times the search alone bought master
only 59.5% against hard. Measured with iteration budgets, which a busy machine does not
change, against ``mcts:iterations=1000`` over 100 games (``ludoteca arena comino
mcts:iterations=1000 B --games 100 --seed 201``): ``mcts:iterations=4000`` scored 65.5%;
playouts taking the best of two at the same time per move (``mcts:iterations=3000,
best_of=2``) 74%, the best of three (``iterations=2200,best_of=3``) 77%; a lower exploration
constant (``c=0.35``) did not help (65.5% over 55 games), nor did valuing playouts partly
by their score margin (59.7% over 67 games; not kept). Master keeps the best of two, which
runs more simulations than the best of three. (Since then Comino's search plays out with
the best of ten by default, the ``scoring`` policy of :mod:`ludoteca.games.comino.ai`, so
medium and hard play those playouts too; at a quarter of a second a move the best of two
and the best of ten were level, 17-1-22 over 40 games, ``ludoteca arena comino
mcts:seconds=0.25,best_of=2 mcts:seconds=0.25 --games 40 --jobs 2 --seed 9``.) With plain
playouts below master, as then, at the levels' own budgets master beat hard 78-22
(``ludoteca arena comino hard master --games 100 --jobs 2 --seed 97``), winning 31 of its
50 games as the first player; its slowest move took 3.88 s of its 4 s. Measured again with
hard's ``scoring`` playouts, that master was no better than hard: 51-0-49 (``ludoteca arena
comino hard master --games 100 --jobs 2 --seed 54``; 18-0-13 in 31 games of a first run,
seed 53), while four times hard's search with hard's own playouts scored 24-0-16 (60% over
40 games, ``ludoteca arena comino hard mcts:seconds=4 --games 40 --jobs 2 --seed 55``; the
first player won 6 of the 40). So Comino's master became the standard one,
``mcts:seconds=4``; over 100 games it beat hard 65-2-33 (66%; ``ludoteca arena comino hard
master --games 100 --jobs 2 --seed 98``; slowest moves 3.88 s of 4 and 0.97 s of 1; the first
player won 25 of the 100). Once the playouts were compiled the same run read 57-2-41, and
master now searches eight seconds in Comino (see the table below).

In Comune the search keeps RAVE statistics by placement, plays out with ``grow`` playouts and
explores less (``c=0.35``), the game's own defaults (:mod:`ludoteca.games.comune.ai`). At
the same quarter of a second a move it beat the plain search (``mcts:seconds=0.25,rave=0,
playout=uniform,c=0.7``) 48-12 (80%), its slowest move 0.243 s (``ludoteca arena comune
mcts:seconds=0.25,rave=0,playout=uniform,c=0.7 mcts:seconds=0.25 --games 60 --jobs 2 --seed
7``), though it runs about a third as many simulations. Comune's row of the level table
below was measured again with this search.

Kuniumi's moves have RAVE statistics too, but its levels keep the plain search. At 1,000
simulations a move RAVE with ``c=0.35`` beat the plain search 59-9-32 (63.5%; RAVE alone
48-9-43; ``ludoteca arena kuniumi mcts:iterations=1000 mcts:iterations=1000,rave=300
mcts:iterations=1000,rave=300,c=0.35 --games 100 --jobs 2 --seed 5``), but it runs about a
third as many simulations, and at a quarter of a second a move it lost 21-4-35 (``ludoteca
arena kuniumi mcts:seconds=0.25 mcts:seconds=0.25,rave=300,c=0.35 --games 60 --jobs 2
--seed 7``). Kuniumi's playouts have since become wary (a win in one taken, moves that
end the game or hand the opponent a win at once avoided; measured in
:mod:`ludoteca.games.kuniumi.ai` at 1,000 simulations against OpenSpiel's MCTS), and its
search solves the endgame exactly. With both, a quarter of a second plays almost as well as
a second: hard beat that medium only 58-6-36 (61%, ``ludoteca arena kuniumi medium hard
--games 100 --jobs 2 --seed 31``), and 36-3-21 (62.5% over 60 games, seed 32) when medium
did without the solver. So Kuniumi's medium is the plain search,
``mcts:seconds=0.25,exact=0,playout=uniform`` (its ``ai.py`` ``LEVEL_SPECS``): no solver,
uniform playouts. Hard and master keep both.

MCTS brings its per-game tuning (in Hexagone for two to four players, playouts cut at 6
moves and judged by each player's chance of ending with the most captures; in the solo
puzzle cut at 20 and scored by the captures, see ``ludoteca.games.hexagone.ai``). In
the solo puzzle it maximises the expected captures: over 60 seeded solo games it averaged
29.8 captures at 0.1 s a move, against 25.5 for the rollout ``planner`` at 0.25 s and 21.6
for greedy (``ludoteca arena hexagone -o players=1 greedy mcts:seconds=0.1
planner:seconds=0.25 --games 60 --seed 43``), so the levels use it there too.

Measured with the standard levels, 100 games a step (``ludoteca arena GAME A B --games 100
--jobs 2 --seed S``; a draw counts half in the score):

=========  ====================  ====================  ====================
game       medium over easy      hard over medium      master over hard
=========  ====================  ====================  ====================
Kuniumi    98-2-0 (99%), 41      81-0-19 (81%), 42     54-3-43 (55.5%), 43
Comune     100-0-0 (100%), 71    79-1-20 (79.5%), 265  71-2-27 (72%), 296
Comino     96-1-3 (96.5%), 51    80-1-19 (80.5%), 52   126-4-70 (64%), 98+99
=========  ====================  ====================  ====================

(wins-draws-losses of the stronger level, then the seed). Comune's row was measured with RAVE
and ``grow`` playouts at every level; medium's slowest move took 0.243 s of its 0.25 s, hard's
0.970 s of its 1 s, master's 3.878 s of its 4 s. With the plain search it had read 100-0-0,
83-0-17 and 87-1-12 (seeds 71, 65+69 and 96+196). Kuniumi's row was measured with its medium of
today and the solver and wary playouts at hard and master, after the search stopped playing a
random move from a reused root the solver had valued (see :mod:`ludoteca.bots.mcts`); hard's
slowest move took 0.968 s of its 1 s, master's 3.877 s of its 4 s, medium's 0.241 s of its 0.25 s.
**Master's step is far below 65% in Kuniumi, and cannot reach it**: the first player, who
places the set-up, can build one where whoever moves first wins in a few moves whichever side
the second player takes, and both levels find such a trap. Of the 100 set-ups of the run, 92
are proven lost for the chooser (a 20,000-simulation search proves it); master won all 50 of
its games as the first player, each in eight to twelve moves, and hard won 43 of its 50 (42 of
them as quickly), so master can score at most what hard leaves it as the placer. Hard won all
50 of its first-player games against medium, which found a trap in 17 of its 50. Before the fix
the row read 77-5-18 and 68-8-24 (seeds 42 and 43+44); with the plain search at every level,
97-2-1, 62-19-19 and 62-11-27 (seeds 21, 22 and 94). Comino's row was measured with its
compiled ``scoring`` playouts at every level and its medium of today, a twentieth of a second
(:mod:`ludoteca.games.comino.ai`); medium's slowest move took 0.048 s of its 0.05 s, hard's
0.97 s of its 1 s, and master, which searches eight seconds in Comino, 7.76 s of its 8.
**Master's step is just below 65% there**: with as many simulations as compiled playouts give,
more time buys little, and between players that close the second seat wins most games (master
won 45.5 of its 50 games as the second player and 18.5 of 50 as the first on seed 98, 44 and 20
on seed 99: two runs of 100 games, each 63-2-35; over the 200, 95% interval 57.1-70.3%), and
twelve seconds did no better (56% over 39 games, see :mod:`ludoteca.games.comino.ai`). The
standard four seconds beat hard only 57-2-41 (58%, ``ludoteca arena comino hard mcts:seconds=4
--games 100 --jobs 2 --seed 98``; 32 of 50 as the second player, 16 of 50 as the first). With
the playouts in pure Python and medium at a quarter of a second the row had read 84-4-12,
73-1-26 and 65-2-33 (seeds 51, 52 and 98); compiled, with medium at a quarter of a second, hard
beat it only 58-2-40. The master of then (``best_of=2``) had scored 51-0-49 over hard (seed
54), and with uniform playouts below master the row had read 72-2-26, 68-0-32 and 78-0-22
(seeds 72, 64 and 97).

MCTS at 1 s a move (the standard hard) against random and greedy (``ludoteca arena GAME
random greedy mcts:seconds=1 --games N --jobs 2 --seed S``, N games a pairing): in Comune
50-0 and 50-0 (seed 99), in Comino 50-0 and 44-6 (seed 98), in Kuniumi 50-0 and 50-0 (seed
12); in two-player Hexagone 20-0 against random (seed 106) and 30-3-7 against greedy (seed
103).

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
