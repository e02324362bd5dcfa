"""The four games as OpenSpiel (pyspiel) Python games.

Importing this module registers ``ludoteca_comune``, ``ludoteca_comino``,
``ludoteca_kuniumi`` and ``ludoteca_hexagone``::

    import pyspiel
    import ludoteca.env.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("ludoteca_hexagone", {"players": 2, "seed": 7})

Every game whose hooks give an action space and an observation
(:meth:`~ludoteca.core.protocol.Game.action_space`) is registered so, the games named as
plug-ins too; :func:`register` registers one named after this module was imported.

- Actions are the game's fixed ids (:mod:`ludoteca.env.actions`), the same as the
  PettingZoo environments': ``num_distinct_actions()`` is the game's ``size``; a move that
  takes several steps (a Comune two-piece turn, a Hexagone swap) is several actions by the
  same player.
- Dice and deals are explicit chance nodes (``chance_outcomes()`` with the engine's
  probabilities; chance ids are the game's chance ids). Hexagone's start block is not a
  chance node (no generator could list its outcomes): the ``seed`` parameter draws it, so
  load the game with another ``seed`` for another block. The other games ignore ``seed``.
- Parameters: ``seed`` (int, 0) for every game; for Hexagone ``players`` (1 to 4; 1, the
  solo puzzle, is the engine's default too) and ``gaps`` (bool, false: a start block with
  enclosed empty cells when true).
- Returns at the end only (:func:`ludoteca.env.actions.returns`): +1 / -1 / 0 with two
  players, zero-sum with more; alone, the score.
- ``observation_tensor(player)`` is the game's tensor (:mod:`ludoteca.env.observation`);
  the observer's ``dict`` has its named pieces.

A state keeps the engine's state: :attr:`LudotecaState.engine` (a
:class:`~ludoteca.core.protocol.State`) and :meth:`LudotecaState.actions_of` (the ids of
a whole move) let a bot of this project play through OpenSpiel.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ludoteca.core import CHANCE, TERMINAL, get, names
from ludoteca.core.protocol import Move
from ludoteca.core.registry import game_class
from ludoteca.core.table import random_playout

from .actions import Play, lists_own_ids, returns, space_for, start_state, warm_up
from .observation import Observer

PREFIX = "ludoteca_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _parameters(cls) -> dict:
    """``seed`` and every option the game has, with its default (Hexagone: ``players`` and
    ``gaps``), as OpenSpiel's parameter specification."""
    params: dict = {"seed": 0}
    if cls.max_players > cls.min_players:
        params["players"] = cls.min_players
    for key, value in cls().options.items():
        params.setdefault(key, value)
    return params


def _game_type(cls, num_players: int | None = None) -> pyspiel.GameType:
    solo = num_players == 1 if num_players is not None else cls.min_players == 1
    return pyspiel.GameType(
        short_name=short_name(cls.id),
        long_name=f"{cls.title} (ludoteca)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if cls.has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(cls),
    )


class LudotecaGame(pyspiel.Game):
    """A ludoteca game behind OpenSpiel's ``Game`` (one subclass per game, see below)."""

    ludoteca_id: str = ""

    def __init__(self, params: dict | None = None) -> None:
        cls = game_class(self.ludoteca_id)
        values = {**_parameters(cls), **(params or {})}
        options = {key: value for key, value in values.items() if key != "seed"}
        if "players" in options:
            options["players"] = int(options["players"])
        self.engine = get(self.ludoteca_id, **options)
        self.seed = int(values["seed"])
        self.space = space_for(self.engine)
        warm_up(self.space)
        self.observer = Observer(self.engine)
        n = self.engine.num_players
        if n == 1:
            low, high, total = 0.0, float(getattr(self.space, "max_score", 1.0)), None
        else:
            low, high, total = -1.0, float(n - 1), 0.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.space.chance_size,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.engine.max_game_length * self.space.max_steps,
        )
        super().__init__(_game_type(cls, n), info, values)
        # OpenSpiel makes a new initial state for every clone, then copies into it: keep
        # the start (Hexagone draws a whole block for it) and hand out copies
        self._start = start_state(self.space, self.engine, self.seed)
        # the tensor's shape depends on the game alone
        self._shape = [self.observer.size]
        # a space whose ids are the engine's moves, listed ascending, lists a position's
        # ids straight from the engine
        self._state_class = OwnIdsState if lists_own_ids(self.space) else LudotecaState

    def new_initial_state(self) -> LudotecaState:
        return self._state_class(self, Play(self.space, self._start.clone()))

    def observation_tensor_shape(self) -> list[int]:
        # pyspiel learns it by making a new initial state and observing it, on every call
        return list(self._shape)

    def observation_tensor_size(self) -> int:
        return self._shape[0]

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TensorObserver(self.observer)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def _player_id(mover: int) -> int:
    """OpenSpiel's player id for the engine's ``to_move``."""
    if mover == CHANCE:
        return _CHANCE
    if mover == TERMINAL:
        return _TERMINAL
    return mover


class LudotecaState(pyspiel.State):
    """An OpenSpiel state over :class:`~ludoteca.env.actions.Play`."""

    def __init__(self, game: LudotecaGame, play: Play) -> None:
        super().__init__(game)
        self._play = play
        self._player = _player_id(play.mover)

    # --- for bots of this project ----------------------------------------------------------
    @property
    def engine(self):
        """The engine's state (between the steps of a move: the position before the move).

        Read it, or clone it to look ahead: changing it would change this state behind
        OpenSpiel's back.
        """
        return self._play.state

    @property
    def play_driver(self) -> Play:
        return self._play

    def actions_of(self, move: Move | str) -> tuple[int, ...]:
        """The action ids that play ``move`` (a move value or notation) from here."""
        return self._play.actions_of(move)

    # --- OpenSpiel's state API -------------------------------------------------------------
    def current_player(self) -> int:
        # kept from the last action: OpenSpiel asks several times for every action it applies
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return self._play.legal_actions()

    # The calls an algorithm makes at every step, answered here rather than by pyspiel's
    # C++ ``State``, which calls back into Python several times for each (``current_player``
    # from ``is_chance_node``, ``legal_actions`` and ``apply_action``; ``_legal_actions``)
    # and converts the ids to a C++ vector and back. C++ callers still take that way, to
    # the same answers; any call of another shape (another player's actions) too.
    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def is_player_node(self) -> bool:
        return self._player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is None or (player == self._player and player >= 0):
            return list(self._play.legal_actions())  # a copy: the caller may change it
        if player >= 0 and self._player != _CHANCE:
            # another player's, or any once the game is over: none, as pyspiel answers
            # (OpenSpiel's RL environment asks for every player's at every step)
            return []
        return super().legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        play = self._play
        play.apply(action)
        mover = play.mover
        self._player = mover if mover >= 0 else _player_id(mover)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._play.label(action)

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation as pyspiel's list of floats, written straight into an array
        (pyspiel observed a new initial state first, to learn the size, then the state,
        through the observer) and listed with its zeros shared: building the list is most
        of the cost."""
        if player is None:
            player = self._player
        game = self.get_game()
        if not 0 <= player < game.num_players():
            return super().observation_tensor(player)  # pyspiel's error, as before
        play = self._play
        # a new array each call (calloc-backed zeros, cheaper than zeroing a kept one):
        # states of one game may be observed from several threads at once
        return _listed(game.observer.encode(play.state, player, play.prefix))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided (the game type says so; use ``observation_tensor``, which for these
        perfect-information games holds everything): raised, as OpenSpiel's own games do,
        rather than an empty list an algorithm would take for a tensor."""
        raise pyspiel.SpielError(
            f"InformationStateTensor unimplemented for {self.get_game().get_type().short_name}: "
            "use observation_tensor (perfect information)"
        )

    def returns(self) -> list[float]:
        return list(self._play.returns())

    # The rewards are the returns: the result at the end, zeros before (a game's only reward
    # is its result), what pyspiel's ``Rewards`` gives, answered here without its calls back
    # into Python (the RL environment asks at every step).
    rewards = returns

    def __str__(self) -> str:
        text = self._play.state.position()
        if self._play.prefix:
            text += " | " + ", ".join(self._play.label(a) for a in self._play.prefix)
        return text


class OwnIdsState(LudotecaState):
    """A state of a game whose moves are their own ids, every ``legal_moves()`` a new list,
    ascending (the space says ``ids_are_moves`` and ``moves_ascending``: Kuniumi): a
    player's legal ids are the engine's list itself, with no decision made or copied (the
    driver plays such an id straight on the engine too)."""

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._player >= 0 and (player is None or player == self._player):
            return self._play.state.legal_moves()  # a new list: the caller may change it
        return super().legal_actions(player)


def _listed(flat: np.ndarray) -> list[float]:
    """``flat.tolist()``, faster for a tensor that is mostly zeros: one shared ``0.0``
    and a Python float only for each value that is not zero (``tolist`` makes one per
    value: 0.13 ms for Hexagone's 15,547). A small tensor (Kuniumi's 193 values) is
    listed by ``tolist``: at most 256 values cost less than the other way's fixed part."""
    if flat.size <= 256:
        return flat.tolist()
    out = [0.0] * flat.size
    where = (flat != 0).nonzero()[0]  # several times faster than flatnonzero on floats
    for i, value in zip(where.tolist(), flat[where].tolist(), strict=True):
        out[i] = value
    return out


class TensorObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, observer: Observer) -> None:
        self._observer = observer
        self.tensor = np.zeros(observer.size, np.float32)
        self.dict = observer.views(self.tensor)

    def set_from(self, state: LudotecaState, player: int) -> None:
        play = state.play_driver
        self._observer.fill(self.tensor, play.state, player, play.prefix)

    def string_from(self, state: LudotecaState, player: int) -> str:
        return str(state)


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's ``MCTSBot`` that plays out with the engine's fast path.

    ``RandomRolloutEvaluator`` plays every rollout one action at a time through this
    adapter, which is faithful but slow for long games (a two-player Hexagone game is some
    700 actions). This one finishes the move under way with random steps, then asks the
    engine for one playout (the game's :attr:`ludoteca.core.ai.SearchKnowledge.playout`: its
    compiled kernel where it has one, uniform random moves), and turns its payoffs into
    returns. Alone (no one to share a payoff with) it plays out through the protocol and
    returns the score. Priors are uniform, as ``RandomRolloutEvaluator``'s.
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: LudotecaState) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            total += self._one(state.play_driver)
        return total / self.n_rollouts

    def _one(self, play: Play) -> np.ndarray:
        if play.prefix:
            play = play.clone()
            while play.prefix:
                play.apply(self._rng.choice(play.legal_actions()))
        engine = play.state
        n = engine.num_players
        if engine.is_over:
            return np.array(play.returns())
        if n == 1:
            probe = engine.clone()
            random_playout(probe, self._rng)
            return np.array(returns(probe.result))
        payoffs = engine.game.search_knowledge().playout(engine, self._rng)
        return np.array([n * p - 1.0 for p in payoffs])

    def prior(self, state: LudotecaState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _has_adapters(game_id: str) -> bool:
    """Whether the game offers an action space and an observation (its hooks say)."""
    game = game_class(game_id)()
    return game.action_space() is not None and game.observation() is not None


GAMES: dict[str, type[LudotecaGame]] = {}
"""OpenSpiel short name -> game class."""


def register(game_id: str) -> str:
    """Register ``game_id`` with OpenSpiel (once) and return its short name: for a game
    named as a plug-in after this module was imported (the four games and every game named
    by then are registered on import). ``ValueError`` if the game offers no adapter."""
    name = short_name(game_id)
    if name not in GAMES:
        if not _has_adapters(game_id):
            raise ValueError(f"{game_id} has no action space and observation for OpenSpiel")
        cls = game_class(game_id)
        sub = type(f"{cls.__name__}OpenSpiel", (LudotecaGame,), {"ludoteca_id": game_id})
        pyspiel.register_game(_game_type(cls), sub)
        GAMES[name] = sub
    return name


for _game_id in filter(_has_adapters, names()):
    register(_game_id)
