"""One fixed integer action space per game, shared by the research adapters.

Reinforcement-learning frameworks want a fixed, finite set of action ids and a mask of
the legal ones; the engines speak in moves. This layer maps one to the other once, so
PettingZoo (:mod:`ludoteca.env.pettingzoo`) and OpenSpiel (:mod:`ludoteca.env.openspiel`)
give every move the same ids.

Each game defines its ids and hands them out through its
:meth:`~ludoteca.core.protocol.Game.action_space` hook (the built-in games from their
``actions.py``), because only the game knows the shape of its moves; nothing here names a
game, and a game loaded as a plug-in offers the adapters as the built-in ones do. A game space gives

- ``size``: the number of player action ids, ``0 .. size-1``;
- ``chance_size``: the number of chance outcome ids (a separate range, as in OpenSpiel);
- ``max_steps``: the most actions one move takes;
- ``encoder(state)``: a function from each legal move of ``state`` to its action ids, a
  tuple of one or more (a move too large for one id, such as Comune's two-piece turn, is a
  short sequence of *steps*; the sequences of one position are prefix-free);
- ``chance_id(outcome)``: the id of a chance outcome;
- ``label(state, action)``: the action in words (notation, or the step it is);
- optionally ``decision(state)``: a :class:`Decision` built without listing every whole
  move (Comune lists thousands of turns; its steps come from single placements);
- optionally ``ids_are_moves = True``: the game's moves are ints that are their own ids
  (Kuniumi), so no move is encoded or looked up, and an id is played as it comes (the
  engine's own check refuses an illegal one); with it, ``moves_ascending = True``: every
  ``legal_moves()`` is a new list, ascending, kept as the legal ids without a sort;
- optionally ``legal_mask(state)``, for a one-step space: a ``bytearray`` of ``size``
  bytes, 1 at each legal id of ``state`` (a player's), made without listing the ids
  (Kuniumi's, from the engine's bitboard): PettingZoo's mask;
- optionally ``decision_masks = True``: its decisions also answer ``mask(prefix)`` (that
  mask as an ``int8`` array, for a space of several steps) and ``allows(prefix, action)``
  (whether an id is legal there), each without listing the ids (Comune's, from the
  engine's placement masks), so a step picked from the mask is checked without a list;
- optionally ``chance_entry(state)``: a chance node's :data:`ChanceEntry` made by the space
  from what the engine keeps, without the engine's list of outcomes mapped id by id
  (Comino's tiles left to deal, as bits; Hexagone's rolls, worked out once per set of
  colours in the block); otherwise :func:`outcomes_entry` maps the engine's list;
- optionally ``max_score``: the best score alone, OpenSpiel's utility bound when a game is
  played by one player (Hexagone's solo puzzle);
- optionally ``warm_up()``: makes the engine's states step with the game's compiled kernel
  (the same rules, compiled by numba: Kuniumi's), called once by each adapter as it is
  made, so that an agent's steps do not run the plain functions;
- optionally ``new_state(game, seed)``: a new game drawn from ``seed`` by the game's compiled
  kernel, where the engine's own ``game.new_state(seed)`` costs an episode's worth of steps
  (Hexagone's start block): every start position of the adapters (:func:`start_state`).

:class:`Play` is the driver both adapters run: an engine state plus the steps chosen so far
of the move under way. The engine sees only whole moves through ``State.play``, so every
rule stays in the engine.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

import numpy as np

from ludoteca.core.errors import GameError, IllegalMoveError
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Move, Result, State

Actions = tuple[int, ...]


class Decision(Protocol):
    """The legal moves of one position as sequences of action ids."""

    def legal(self, prefix: Actions) -> list[int]:
        """The ids that may follow ``prefix`` (ascending)."""
        ...

    def complete(self, prefix: Actions) -> Move | None:
        """The whole move ``prefix`` makes, or ``None`` while it is unfinished or where it
        is no legal move (a one-step game's adapter tells a legal id by this alone)."""
        ...


class GameSpace(Protocol):
    size: int
    chance_size: int
    max_steps: int

    def encoder(self, state: State) -> Callable[[Move], Actions]: ...

    def chance_id(self, outcome: Move) -> int: ...

    def label(self, state: State, action: int) -> str: ...


class TrieDecision:
    """A :class:`Decision` from every legal move and its ids, listed once per position.

    Every move is encoded once (the ids of each move are needed to play it); the ids that
    may follow a prefix are gathered only when that prefix is asked for, and kept: an agent
    asks for the first ids and for those after the one prefix it chose, not for the rest.
    """

    __slots__ = ("_next", "_moves")

    def __init__(self, moves: Sequence[Move], encode: Callable[[Move], Actions]) -> None:
        ids = list(map(encode, moves))
        self._moves: dict[Actions, Move] = dict(zip(ids, moves, strict=True))
        if len(self._moves) != len(ids):
            raise ValueError("two moves share their action ids")
        self._next: dict[Actions, list[int]] = {}

    def legal(self, prefix: Actions) -> list[int]:
        found = self._next.get(prefix)
        if found is None:
            n = len(prefix)
            if n:
                following = {a[n] for a in self._moves if len(a) > n and a[:n] == prefix}
            else:
                following = {a[0] for a in self._moves}
            found = self._next[prefix] = sorted(following)
        return found

    def complete(self, prefix: Actions) -> Move | None:
        return self._moves.get(prefix)


class FlatDecision:
    """A :class:`Decision` for a game whose every move is one id: a dict and a sorted list.

    Search builds one per position it visits, so it costs one pass over the legal moves.
    """

    __slots__ = ("_legal", "_moves")

    def __init__(self, moves: Sequence[Move], encode: Callable[[Move], Actions]) -> None:
        self._moves = {ids[0]: move for ids, move in zip(map(encode, moves), moves, strict=True)}
        if len(self._moves) != len(moves):
            raise ValueError("two moves share an action id")
        self._legal = sorted(self._moves)

    def legal(self, prefix: Actions) -> list[int]:
        return [] if prefix else self._legal

    def complete(self, prefix: Actions) -> Move | None:
        return self._moves.get(prefix[0]) if len(prefix) == 1 else None


class SameIdDecision:
    """A :class:`Decision` for a game whose moves are their own ids (ints, one each): the
    space says so with ``ids_are_moves = True``, and nothing is encoded or mapped."""

    __slots__ = ("_legal",)

    def __init__(self, moves: Sequence[Move], ascending: bool = False) -> None:
        # a list the engine made for this call and listed ascending already (the space says
        # so with ``moves_ascending = True``) is kept as it is; any other is sorted
        self._legal = moves if ascending else sorted(moves)  # type: ignore[type-var]

    def legal(self, prefix: Actions) -> list[int]:
        return [] if prefix else self._legal

    def complete(self, prefix: Actions) -> Move | None:
        return prefix[0] if len(prefix) == 1 and prefix[0] in self._legal else None


def space_for(game: Game) -> GameSpace:
    """The action space ``game`` defines (:meth:`~ludoteca.core.protocol.Game.action_space`);
    ``ValueError`` for a game without one."""
    space = game.action_space()
    if space is None:
        raise ValueError(f"{game.title} has no action space for the research adapters")
    return space


def warm_up(space: GameSpace) -> None:
    """The space's ``warm_up()``, where it has one (see the module's notes)."""
    prepare = getattr(space, "warm_up", None)
    if prepare is not None:
        prepare()


def start_state(space: GameSpace, game: Game, seed: int | None = None) -> State:
    """A new game of ``game`` drawn from ``seed`` (a random one when ``None``), by the space's
    ``new_state(game, seed)`` where it has one, otherwise by ``game.new_state(seed)``: where
    every adapter starts a game, so a seed gives one start in all of them."""
    own = getattr(space, "new_state", None)
    if own is None:
        return game.new_state(seed)
    return own(game, random.randrange(1 << 31) if seed is None else seed)


def lists_own_ids(space: GameSpace) -> bool:
    """Whether a position's legal ids are the engine's own list of moves as it comes: the
    space says ``ids_are_moves`` and ``moves_ascending`` (Kuniumi), so neither the driver nor
    an adapter need make a decision or sort for a player's ids."""
    return bool(getattr(space, "ids_are_moves", False)) and bool(
        getattr(space, "moves_ascending", False)
    )


def decider(space: GameSpace) -> Callable[[State], Decision]:
    """How ``space`` decides a position: its own ``decision``, or the kind of decision its
    ids call for. Worked out once per driver, not once per position."""
    own = getattr(space, "decision", None)
    if own is not None:
        return own
    if getattr(space, "ids_are_moves", False):
        return _same_ascending_ids if lists_own_ids(space) else _same_ids
    kind = FlatDecision if space.max_steps == 1 else TrieDecision
    return partial(_listed, kind, space)  # not a lambda: a driver pickles


def _same_ids(state: State) -> Decision:
    return SameIdDecision(state.legal_moves())


def _same_ascending_ids(state: State) -> Decision:
    return SameIdDecision(state.legal_moves(), ascending=True)


def _listed(kind: type[FlatDecision | TrieDecision], space: GameSpace, state: State) -> Decision:
    return kind(state.legal_moves(), space.encoder(state))


def returns(result: Result) -> tuple[float, ...]:
    """Each player's return at the end: what the adapters reward.

    With two or more players, ``n * payoff - 1`` (see :meth:`Result.payoffs`): +1 a win,
    -1 a loss and 0 a draw with two players; with more, the winners share ``n`` points and
    everyone pays one, so the returns always sum to 0. Alone (Hexagone's solo puzzle) the
    return is the score.
    """
    n = result.num_players
    if n == 1:
        return (float(result.scores[0]) if result.scores else 0.0,)
    return tuple(n * p - 1.0 for p in result.payoffs())


ChanceEntry = tuple[
    Mapping[int, tuple[Move, float]],
    list[tuple[int, float]],
    Sequence[int],
    tuple[float, ...],
]
"""A chance node's outcomes by id, its ``(id, probability)`` pairs ascending, its ids
ascending and their probabilities in the same order (what PettingZoo's draw reads)."""


class OutcomesById(Mapping[int, tuple[Move, float]]):
    """A chance node's outcomes by id where the engine keeps every outcome, with its
    probability at this node, in a tuple indexed by the id (Comino's draws, by tile):
    the ids of the node index that tuple, and no ``dict`` of them is built. A chance node
    is asked for one outcome (the one drawn) of the ten or twenty it has, so building the
    table was most of a deal's draw in the adapters."""

    __slots__ = ("_ids", "_outcomes")

    def __init__(self, ids: Sequence[int], outcomes: Sequence[tuple[Move, float]]) -> None:
        self._ids = ids
        self._outcomes = outcomes

    def get(self, action, default=None):  # type: ignore[override]
        return self._outcomes[action] if action in self._ids else default

    def __getitem__(self, action: int) -> tuple[Move, float]:
        if action not in self._ids:
            raise KeyError(action)
        return self._outcomes[action]

    def __contains__(self, action: object) -> bool:
        return action in self._ids

    def __iter__(self) -> Iterator[int]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def outcomes_entry(
    chance_id: Callable[[Any], int], outcomes: Sequence[tuple[Move, float]]
) -> ChanceEntry:
    """The :data:`ChanceEntry` of a chance node's ``outcomes`` (the engine's list), each
    outcome's id by ``chance_id`` (a space's), worked out afresh: the pairs and ids
    ascending."""
    table = {chance_id(move): (move, p) for move, p in outcomes}
    pairs = sorted((a, p) for a, (_, p) in table.items())
    return table, pairs, [a for a, _ in pairs], tuple(p for _, p in pairs)


class Play:
    """An engine state and the action ids chosen so far in the move under way.

    ``legal_actions`` and ``apply`` are all an adapter needs; a chance node offers its
    outcomes by chance id with their probabilities. The decision of a position (its moves
    as id sequences) is built on first use and shared by clones, since it describes the
    position and never changes. Whose turn it is (:attr:`mover`) is read from the engine
    each time the driver plays, so a state changed behind the driver's back is met by
    ``actions_of`` and ``label`` only (they ask the state); play through :meth:`apply`.
    """

    __slots__ = (
        "space",
        "state",
        "prefix",
        "mover",
        "_decision",
        "_legal",
        "_chance",
        "_decide",
        "_direct",
        "_one_step",
        "_own_listed",
        "_masked",
        "_state_mask",
        "_own_chance",
    )

    def __init__(self, space: GameSpace, state: State) -> None:
        self.space = space
        self.state = state
        self.prefix: Actions = ()
        self.mover: int = state.to_move
        """The engine's ``to_move``, read once each time the driver changes the state (an
        agent asks for it several times an action; the state changes only through here)."""
        self._decision: Decision | None = None
        self._legal: list[int] | None = None
        """The ids last listed for this position and prefix (the decision's own list),
        which the step that follows checks its id against without asking again."""
        self._chance: ChanceEntry | None = None
        self._decide = decider(space)
        # ids that are the engine's moves are played as they come: the engine's own check
        # refuses an illegal one, so no decision is needed to tell it
        self._direct: bool = bool(getattr(space, "ids_are_moves", False))
        self._one_step = space.max_steps == 1
        # and where they come ascending, a new list each time, the engine's list is the ids
        self._own_listed = lists_own_ids(space)
        # decisions that tell a legal id from their masks: a step is checked without a list
        self._masked: bool = bool(getattr(space, "decision_masks", False))
        # or a one-step space that makes a position's mask itself
        own_mask = getattr(space, "legal_mask", None)
        self._state_mask: Callable[[State], bytearray] | None = own_mask if self._one_step else None
        # a space that makes a chance node's entry from the engine's own bits says so
        self._own_chance: Callable[[State], ChanceEntry] | None = getattr(
            space, "chance_entry", None
        )

    @classmethod
    def new(cls, game: Game, seed: int | None = None) -> Play:
        space = space_for(game)
        return cls(space, start_state(space, game, seed))

    # --- what can happen ---------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL` (the engine's values)."""
        return self.mover

    @property
    def decision(self) -> Decision:
        if self._decision is None:
            self._decision = self._decide(self.state)
        return self._decision

    def _chance_entry(self) -> ChanceEntry:
        if self._chance is None:
            if self._own_chance is not None:
                self._chance = self._own_chance(self.state)
                return self._chance
            self._chance = outcomes_entry(self.space.chance_id, self.state.chance_outcomes())
        return self._chance

    def chance_table(self) -> Mapping[int, tuple[Move, float]]:
        """Chance id -> ``(outcome, probability)`` at a chance node (shared: do not change it)."""
        return self._chance_entry()[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(chance id, probability)`` at a chance node, ids ascending; else empty."""
        return list(self._chance_entry()[1])

    def chance_probabilities(self) -> tuple[float, ...]:
        """The chance outcomes' probabilities in :meth:`chance_outcomes`' order, without a
        list of pairs made (PettingZoo's draw reads these alone)."""
        return self._chance_entry()[3]

    def apply_chance(self, i: int) -> Move:
        """Play the ``i``-th chance outcome of :meth:`chance_outcomes` (as drawn by index
        from :meth:`chance_probabilities`): the outcome's move, no id looked up again."""
        table, _, ids, _ = self._chance_entry()
        move = table[ids[i]][0]
        self._play(move)
        return move

    def legal_mask(self) -> np.ndarray | None:
        """The legal ids as PettingZoo's ``int8`` mask, made without a list: by a one-step
        space's ``legal_mask(state)``, or by a decision's ``mask(prefix)``
        (``decision_masks``); ``None`` where the space makes none, or no player is to act."""
        if self.mover < 0:
            return None
        if self._state_mask is not None:
            return np.frombuffer(self._state_mask(self.state), np.int8)
        if not self._masked:
            return None
        decision = self._decision
        if decision is None:
            decision = self._decision = self._decide(self.state)
        return decision.mask(self.prefix)  # type: ignore[attr-defined]

    def legal_actions(self) -> list[int]:
        """The legal ids, ascending: chance ids at a chance node, none once the game is over."""
        if self.mover >= 0:  # a player: the common case first, the decision read once
            if self._own_listed:
                return self.state.legal_moves()
            decision = self._decision
            if decision is None:
                decision = self._decision = self._decide(self.state)
            legal = self._legal = decision.legal(self.prefix)
            return legal
        if self.mover == CHANCE:
            return list(self._chance_entry()[2])
        return []

    # --- acting -------------------------------------------------------------------------
    def completes(self, action: int) -> Move | None:
        """The whole move ``action`` would complete from here (a chance outcome is one), or
        ``None`` where it is one part of a move under way; nothing is played. A caller that
        records games reads a move's notation from it before the action is applied.

        Raises :class:`~ludoteca.core.errors.IllegalMoveError` for an id that is not legal
        here.
        """
        action = int(action)
        if self.mover == CHANCE:
            entry = self.chance_table().get(action)
            if entry is None:
                raise IllegalMoveError(str(action), "not a chance outcome of this position")
            return entry[0]
        decision = self._decision
        if decision is None:
            decision = self.decision
        if self._one_step:
            # every move one id: the move of a legal id, and None only for an illegal one
            # (one look-up instead of a search of the legal list)
            move = decision.complete((action,))
            if move is None:
                raise self._refusal(action)
            return move
        legal = self._legal
        if legal is None:
            if self._masked:
                if not decision.allows(self.prefix, action):  # type: ignore[attr-defined]
                    raise self._refusal(action)
                return decision.complete((*self.prefix, action))
            legal = decision.legal(self.prefix)
        at = bisect_left(legal, action)  # the legal ids are ascending: no scan of them
        if at == len(legal) or legal[at] != action:
            raise self._refusal(action)
        return decision.complete((*self.prefix, action))

    def _refusal(self, action: int) -> IllegalMoveError:
        """Why ``action`` is refused here: not legal (named in words), or no id at all (an
        id out of the space has no words: asking for them would fail another way)."""
        size = self.space.size
        if not 0 <= action < size:
            return IllegalMoveError(
                str(action), f"no action has this id: the ids run from 0 to {size - 1}"
            )
        return IllegalMoveError(str(action), f"not a legal action here ({self.label(action)!r})")

    def apply(self, action: int) -> Move | None:
        """Take one action; returns the whole move once it is complete (and played).

        Raises :class:`~ludoteca.core.errors.IllegalMoveError` for an id that is not legal
        here, leaving everything unchanged.
        """
        action = int(action)
        if self._direct and self.mover >= 0:
            # an id that is its own move: the engine checks it (the one place the rules
            # are) and refuses an illegal one with the state unchanged; _play written out
            # (this is every step of such a game)
            state = self.state
            try:
                state.play(action)
            except GameError:
                raise self._refusal(action) from None
            self._decision = None
            self._legal = None
            self._chance = None
            self.mover = state.to_move
            return action
        move = self.completes(action)
        if move is None:
            self.prefix = (*self.prefix, action)
            self._legal = None
            return None
        self._play(move)
        return move

    def _play(self, move: Move) -> None:
        self.state.play(move)
        self.prefix = ()
        self._decision = None
        self._legal = None
        self._chance = None
        self.mover = self.state.to_move

    def actions_of(self, move: Move | str) -> Actions:
        """The ids that play ``move`` (a move value or notation) from a move's start.

        A bot that chooses whole moves plays through an adapter with these.
        """
        if self.prefix:
            raise ValueError("a move is under way; its remaining steps are legal_actions()")
        move = self.state.coerce_move(move)
        if self.state.to_move == CHANCE:  # the state's own: a caller may have played on it
            return (self.space.chance_id(move),)
        return self.space.encoder(self.state)(move)

    def label(self, action: int) -> str:
        if self.state.to_move == CHANCE:
            entry = self.chance_table().get(int(action))
            return self.state.move_to_str(entry[0]) if entry else f"chance {action}"
        return self.space.label(self.state, int(action))

    def clone(self) -> Play:
        other = Play.__new__(Play)
        other.space = self.space
        other.state = self.state.clone()
        other.prefix = self.prefix
        other.mover = self.mover
        other._decision = self._decision
        other._legal = self._legal
        other._chance = self._chance
        other._decide = self._decide
        other._direct = self._direct
        other._one_step = self._one_step
        other._own_listed = self._own_listed
        other._masked = self._masked
        other._state_mask = self._state_mask
        other._own_chance = self._own_chance
        return other

    def __deepcopy__(self, memo: dict) -> Play:
        # OpenSpiel clones a Python state by deep-copying its attributes; a deep copy of
        # the engine's state and its history would cost far more than its own clone
        return self.clone()

    # --- the end ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.mover == TERMINAL

    def returns(self) -> tuple[float, ...]:
        """:func:`returns` at the end; zeros before."""
        result = self.state.result
        if result is None:
            return (0.0,) * self.state.num_players
        return returns(result)
