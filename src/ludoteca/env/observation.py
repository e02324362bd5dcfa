"""Observation tensors: one flat ``float32`` array per game, cut into named views.

Each game lays out its observation in the object its
:meth:`~ludoteca.core.protocol.Game.observation` hook gives (the built-in games: their
``observation.py``): ``layout(game)``
lists the named pieces and their shapes in order, and ``fill(views, state, player, prefix)``
writes a position into zeroed views as seen by ``player`` (``prefix``: the steps already
chosen of the move under way, see :mod:`ludoteca.env.actions`). The flat array is the
pieces one after the other in C order; :func:`views` gives each piece its shape again
(OpenSpiel's observer ``dict`` is exactly that). A game may give ``fill_flat(flat, state,
player, prefix)`` instead, writing straight into the zeroed flat array: its ones in one
numpy assignment and its features as one slice, which is several times faster than
writing through the views one element at a time (:func:`starts` gives each piece's
offset); and beside it ``encode_flat(state, player, prefix)``, a new array of the same
values made in one go (Kuniumi's: its bytes joined from tables), which :class:`Observer`'s
``encode`` then is. Every value is in [0, 1]
(:data:`LOW`, :data:`HIGH`): 0/1 flags, and counts divided by their largest value (Comino's
scores by 100, read as 1 beyond), so the spaces can say so.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

import numpy as np

from ludoteca.core.protocol import Game, State

Layout = tuple[tuple[str, tuple[int, ...]], ...]

BOARDS = np.dtype("<u8")
"""Little-endian 64-bit boards, for a game that observes its int bitboards by unpacking
them (``np.unpackbits``): their bytes come lowest first on any machine."""


def unpacked_bit(board, bit):
    """Where bit ``bit`` of the ``board``-th of several :data:`BOARDS` lies once their bytes
    are unpacked by ``np.unpackbits`` (numpy's big bit order, twice as quick to unpack as
    the little: bit ``i`` in byte ``i // 8`` at ``7 - i % 8``). Ints or numpy arrays alike."""
    return 64 * board + bit // 8 * 8 + 7 - bit % 8


def byte_bits(dtype) -> np.ndarray:
    """A table of each byte's eight bits (row ``b``: the bits of byte ``b``) as ``dtype``, in
    ``np.unpackbits``' big bit order, so :func:`unpacked_bit`'s places hold: taking its rows
    by a buffer's bytes (``take(..., axis=0)``) unpacks the buffer straight into ``dtype``."""
    return np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(dtype)


LOW, HIGH = 0.0, 1.0
"""The bounds of every value of every game's observation."""


def starts(layout: Layout) -> dict[str, int]:
    """Where each named piece of ``layout`` starts in the flat array."""
    out: dict[str, int] = {}
    start = 0
    for name, shape in layout:
        out[name] = start
        start += prod(shape)
    return out


class Observer:
    """A game's observation layout and encoder."""

    encode: Callable[..., np.ndarray]
    """``encode(state, player, prefix=())``: a fresh array (an agent may keep it) of
    ``state`` as ``player`` sees it. One function per observer with what it needs bound: an
    observation costs a few microseconds, and attribute look-ups are a few percent of that."""

    def __init__(self, game: Game) -> None:
        module = game.observation()
        if module is None:
            raise ValueError(f"{game.title} has no observation for the research adapters")
        self.layout: Layout = tuple(module.layout(game))
        self._fill = getattr(module, "fill", None)
        self.size = sum(prod(shape) for _, shape in self.layout)
        self._pieces: list[tuple[str, slice, tuple[int, ...]]] = []
        start = 0
        for name, shape in self.layout:
            self._pieces.append((name, slice(start, start + prod(shape)), shape))
            start += prod(shape)
        # how a position is written into a zeroed flat array: the game's own flat writer,
        # or its writer through the named views
        self._write: Callable[[np.ndarray, State, int, tuple[int, ...]], None] = (
            getattr(module, "fill_flat", None) or self._fill_views
        )
        size, zeros, float32, write = self.size, np.zeros, np.float32, self._write

        def encode(state: State, player: int, prefix: tuple[int, ...] = ()) -> np.ndarray:
            flat = zeros(size, float32)
            write(flat, state, player, prefix)
            return flat

        self.encode = getattr(module, "encode_flat", None) or encode

    def _fill_views(
        self, flat: np.ndarray, state: State, player: int, prefix: tuple[int, ...]
    ) -> None:
        self._fill(self.views(flat), state, player, prefix)

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The named pieces of ``flat``, shaped, sharing its memory."""
        return {name: flat[where].reshape(shape) for name, where, shape in self._pieces}

    def fill(self, flat: np.ndarray, state: State, player: int, prefix: tuple[int, ...]) -> None:
        """Write ``state`` as ``player`` sees it into ``flat`` (zeroed first)."""
        flat.fill(0.0)
        self._write(flat, state, player, prefix)

    def describe(self) -> str:
        """The layout in one line per piece, for documentation and errors."""
        return "\n".join(f"{name}: {shape}" for name, shape in self.layout)
