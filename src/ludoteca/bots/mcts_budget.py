"""How :mod:`ludoteca.bots.mcts` keeps its budgets: the shares and weights its search loop
plans each simulation by.

Budgets: ``seconds``, ``iterations`` (simulations), ``depth`` (deepest tree node expanded;
playouts continue below it). Without any, ``default_budget`` applies. A time budget is
checked before every simulation, and the search decides there, from what it has measured
in this search only, how the simulation plays out:

- with the game's fast playout while the longest step of this search so far (a simulation
  and the loop's own work, timed from the end of the one before) still fits before the
  deadline. On a busy machine that step is the longest the scheduler has kept the process
  waiting, and the search keeps that much in hand to the end (a maximum that decayed let
  moves overrun on a loaded machine: ``docs/performance.md``, time per move);
- after that, in a game whose typical simulation takes a sizeable share of the budget
  (:data:`TAIL_SHARE`), with playouts that go move by move and give up at the deadline, so
  the end of the budget is used without one long playout carrying the move past its time;
  in a game whose simulations are short the search simply stops there.

Nothing about playout times is kept from one search to the next: a busy moment on a shared
machine costs at most the rest of the search it happened in, never the later ones
(``python bench/budgets.py`` measures both).
"""

TAIL_SHARE = 0.05
"""A search whose typical simulation takes more than this share of the time budget finishes
its budget with playouts that stop at the deadline (see the module text).

The share is the 5% a move may overrun. Below it, stopping when the longest step no longer
fits gives away little (on a busy machine, the longest wait for the processor); above it,
that would give away a sizeable part of the budget. It is the *typical* simulation, not the
longest, that decides: on a machine so busy that the process got a fifth of a core, a Comune
search's longest step (one the scheduler held up) exceeded 5% of the 0.25 s of ``medium``
while the typical one took under a millisecond, and finishing such a search move by move
only exposed its last simulations to the next wait, past the deadline (``python
bench/budgets.py --games comune --levels medium``)."""

HELD_SHARE = 0.1
"""At most this share of the budget is kept in hand for the longest step (see the module
text) in a game whose simulations are short: a machine busy enough to hold the process up
for longer would otherwise leave little of the search. Over 80 Comune ``medium`` moves with
the load average at 13-17 on two cores, the slowest took 0.247 s with a tenth kept at most
and 0.244-0.260 s with no limit (measured as ``python bench/budgets.py --games comune
--levels medium --moves 80`` measures): no clear difference on a machine that noisy, and
the search keeps at least nine tenths of its time."""

EXPLORATION = 0.7
"""UCT's exploration constant where neither the bot nor the game sets one: about
``sqrt(2) / 2``, the textbook ``sqrt(2)`` for payoffs in ``[0, 1]`` instead of ``[-1, 1]``."""

TYPICAL_WEIGHT = 1 / 16
"""The weight of each new simulation time in the moving average of a typical one."""
