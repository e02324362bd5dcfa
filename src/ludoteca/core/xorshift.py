"""The seeded random generator of the compiled kernels: xorshift32, as plain functions over
integers, so that the engine's Python and the compiled code (:mod:`.compiled`) draw exactly
the same numbers. One generator for every game's kernel."""

from __future__ import annotations

from typing import Any

MASK32 = 0xFFFFFFFF


def rng_next(s: int) -> int:
    """xorshift32: the next state (never 0 when seeded with a non-zero value)."""
    s ^= (s << 13) & MASK32
    s ^= s >> 17
    s ^= (s << 5) & MASK32
    return s


def rng_seed(seed: int) -> int:
    """A valid generator state from any integer seed."""
    s = seed & MASK32
    if s == 0:
        s = 0x9E3779B9
    return rng_next(rng_next(s))


def rand_at(g: Any, at: int, n: int) -> int:
    """A number in ``range(n)`` (``n`` below 2**31) from the generator state kept in
    ``g[at]`` (a game array's slot), which it advances."""
    s = rng_next(g[at])
    g[at] = s
    return (s * n) >> 32


def seed_at(g: Any, at: int, value: int) -> None:
    """Seed the generator kept in ``g[at]`` from any integer."""
    g[at] = rng_seed(value)
