"""PettingZoo AEC environments for the four games.

``env("hexagone", players=3)`` is an AEC environment in the style of
PettingZoo's classic games:

- agents ``player_0`` .. ``player_{n-1}``, seats in the engine's order;
- ``action_space(agent)``: ``Discrete(size)``, the game's fixed ids
  (:mod:`ludoteca.env.actions`); a move that takes several steps (a Comune turn of two
  pieces, a Hexagone swap) is several ``step`` calls by the same agent;
- ``observe(agent)``: ``{"observation": float32 array, "action_mask": int8 array}``; the
  observation is the game's tensor (:mod:`ludoteca.env.observation`) as ``agent`` sees it,
  the mask marks the legal ids for the agent to act and is all zeros for the others;
- rewards only at the end (:func:`ludoteca.env.actions.returns`): +1 / -1 / 0 with two
  players;
- chance (Comino's deal, Hexagone's dice and start block) is drawn inside the environment
  from the generator ``reset(seed=...)`` seeds, so a seed fixes the whole game given the
  actions.

An illegal action raises :class:`~ludoteca.core.errors.IllegalMoveError` by default: the
engine never guesses what was meant. ``env(..., illegal="terminate")`` follows PettingZoo's
classic games instead (its ``TerminateIllegalWrapper``): the game ends at once, the agent that
played the illegal action gets ``illegal_reward`` (-1 by default) and the others 0.

With the same ``reset`` seed, Hexagone with 2 and with 3 players starts from the same block
and rolls the same dice, and since no rule of a turn depends on the number of players (only
who moves, and who keeps the captures), the same policy of the action mask plays the same
actions in both: the trajectories are the same while the movers and the results differ.
With 4 players one white piece is set aside first, so the block differs. That is the rules,
not a shared generator; give each configuration its own seeds to sample different games.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ludoteca.core import CHANCE, TERMINAL, get
from ludoteca.core.kept import Kept
from ludoteca.core.protocol import Game

from .actions import Play, returns, space_for, start_state, warm_up
from .observation import HIGH, LOW, Observer


def draw(generator: np.random.Generator, probabilities: Sequence[float]) -> int:
    """The index ``generator.choice(n, p=probs / probs.sum())`` draws, from the same one
    number of the generator and by the same arithmetic, at a fraction of its cost (the
    checks of ``p`` that ``choice`` makes are the engine's to keep: its probabilities sum
    to 1). The cumulative sums are worked out by numpy once per list of probabilities
    (:func:`_cumulative`: a deal or a roll meets the same few lists) and searched as
    Python floats: ``bisect_right`` finds the index ``searchsorted(side="right")`` does."""
    return bisect_right(_CUMULATIVE[tuple(probabilities)], generator.random())


def _cumulative(probabilities: tuple[float, ...]) -> list[float]:
    """``choice``'s cumulative sums of ``probabilities``, as Python floats."""
    probs = np.array(probabilities)
    cdf = (probs / probs.sum()).cumsum()
    cdf /= cdf[-1]
    return cdf.tolist()


_CUMULATIVE: Kept[tuple[float, ...], list[float]] = Kept(_cumulative, 4096)


def _mask(size: int, legal: list[int]) -> np.ndarray:
    """An ``int8`` array of ``size`` with a 1 at each id of ``legal``: a few ids set one by
    one in a new zeroed buffer, several times faster than numpy's zeros and a fancy-indexed
    assignment (which converts the list first); many ids by numpy's ``put``."""
    buffer = bytearray(size)
    mask = np.frombuffer(buffer, np.int8)
    if len(legal) > 256:
        mask.put(legal, 1)
    else:
        for action in legal:
            buffer[action] = 1
    return mask


class LudotecaEnv(AECEnv):
    """One game of ``game`` (an id or a :class:`~ludoteca.core.protocol.Game`) per episode."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str | Game, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game = get(game, **options) if isinstance(game, str) else game
        self.metadata = {**self.metadata, "name": f"ludoteca_{self.game.id}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.space = space_for(self.game)
        warm_up(self.space)
        self.observer = Observer(self.game)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        observation = spaces.Box(LOW, HIGH, (self.observer.size,), np.float32)
        mask = spaces.Box(0, 1, (self.space.size,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask})
            for a in self.possible_agents
        }
        self.play: Play | None = None
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the episode ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.play is None:
            self.np_random, _ = seeding.np_random(seed)
        setup_seed = int(self.np_random.integers(2**31))
        self.play = Play(self.space, start_state(self.space, self.game, setup_seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.play is not None
        self._cumulative_rewards[agent] = 0.0
        # no reward comes before the end, which sets them: the dict stays the zeros of reset
        self.play.apply(int(action))  # type: ignore[arg-type]
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Draw chance outcomes until a player acts or the game ends; then say who acts."""
        play = self.play
        assert play is not None
        while play.mover == CHANCE:
            play.apply_chance(draw(self.np_random, play.chance_probabilities()))
        if play.mover == TERMINAL:
            result = play.state.result
            for agent, value in zip(self.agents, returns(result), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
                self.infos[agent] = {"result": result}
            self._accumulate_rewards()
            # the agent that moved last stays selected, as PettingZoo's classic games do
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[play.mover]

    # --- what an agent sees ---------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        play = self.play
        assert play is not None
        player = self._seat[agent]
        observation = self.observer.encode(play.state, player, play.prefix)
        if play.mover == player:
            # made by the space where it can, without a list of the ids
            mask = play.legal_mask()
            if mask is None:
                mask = _mask(self.space.size, play.legal_actions())
        else:
            mask = np.zeros(self.space.size, np.int8)
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None or self.play is None:
            return None
        text = self.game.render_text(self.play.state)
        if self.play.prefix:
            steps = ", ".join(self.play.label(a) for a in self.play.prefix)
            text += f"\n(move under way: {steps})"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str | Game, render_mode: str | None = None, **options: Any) -> LudotecaEnv:
    """The bare environment for ``game`` (``players=N`` for Hexagone: 1 to 4, default 1)."""
    return LudotecaEnv(game, render_mode=render_mode, **options)


ILLEGAL = ("raise", "terminate")
"""What an illegal action does: raise (the default), or end the game as PettingZoo's classic
games do."""


def env(
    game: str | Game,
    render_mode: str | None = None,
    *,
    illegal: str = "raise",
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv:
    """:func:`raw_env` in PettingZoo's order-enforcing wrapper, as its classic games come.

    ``illegal="terminate"``: an illegal action ends the game, the agent that played it gets
    ``illegal_reward`` and the others 0 (PettingZoo's ``TerminateIllegalWrapper``, with
    its ``AssertOutOfBoundsWrapper``, as in its classic games); ``"raise"`` (the default):
    :class:`~ludoteca.core.errors.IllegalMoveError`. The engine state is at
    ``env.unwrapped.play.state``.
    """
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
    wrapped: AECEnv = raw_env(game, render_mode=render_mode, **options)
    if illegal == "terminate":
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
        wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _OrderEnforcing(wrapped)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, whose ``last()``, ``step()`` and agent
    iterator (each called at every step of an agent loop) read the environment's
    attributes through the wrapper's checked ``__getattr__`` one by one. Once ``reset`` has
    been called those checks have nothing left to find, and the environment is read
    directly; the order is still enforced (a step between two agents of the loop), and
    before ``reset`` the wrapper's own errors come as before."""

    def last(self, observe: bool = True):
        if self._has_reset:
            return self.env.last(observe)
        return super().last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)  # the wrapper's error
        return _Agents(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _Agents(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env  # type: ignore[attr-defined]
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection
