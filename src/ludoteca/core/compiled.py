"""Plain functions of a game module compiled by numba, the module's own code unchanged.

A game keeps its fast core as plain Python functions over integers and arrays (Kuniumi's
``bits``, Hexagone's ``flat``) so that the engine and the tests run exactly the code the
compiled kernel runs. :func:`compile_functions` rebuilds each named
function from its own code object with a globals table in which its sibling functions are
the compiled ones, and hands it to ``numba.njit(cache=True)``: numba's on-disk cache, kept
beside the module, means compilation is paid once per machine, not once per process.

Importing numba is slow, so callers import this only when a fast playout or a benchmark
kernel is asked for.
"""

from __future__ import annotations

import time
import types
from collections.abc import Callable


def compile_functions(
    modules: types.ModuleType | tuple[types.ModuleType, ...],
    names: tuple[str, ...],
    *,
    cpu: tuple[str, ...] = (),
) -> types.SimpleNamespace:
    """The functions ``names`` of ``modules`` (one module, or several whose functions call
    each other, such as :mod:`.xorshift` and a game's flat rules), compiled together.

    ``cpu`` names functions (among ``names``) whose Python body uses ``int`` methods numba
    cannot compile, such as a ``popcount`` by ``bit_count``: compiled code calls the CPU's
    instruction of that name instead (:data:`.bit_instructions.INSTRUCTIONS`)."""
    import numba

    modules = modules if isinstance(modules, tuple) else (modules,)
    table: dict = {}
    for module in modules:
        table.update(
            (k, v) for k, v in vars(module).items() if not isinstance(v, types.FunctionType)
        )
    out: dict[str, Callable] = {}
    if cpu:
        from ludoteca.core.bit_instructions import INSTRUCTIONS

        out.update((name, INSTRUCTIONS[name]) for name in cpu)
        table.update(out)
    for name in names:
        if name in cpu:
            continue
        original = _defined(modules, name)
        twin = types.FunctionType(
            original.__code__, table, original.__name__, original.__defaults__
        )
        twin.__qualname__ = original.__qualname__
        twin.__module__ = original.__module__
        out[name] = numba.njit(cache=True)(twin)
    table.update(out)  # siblings resolve to compiled functions when numba types the callers
    return types.SimpleNamespace(jit=True, **out)


def _defined(modules: tuple[types.ModuleType, ...], name: str) -> types.FunctionType:
    """The function ``name`` of the module among ``modules`` that defines it (not one that
    imports it), so that it is compiled once, with its own module's names."""
    for module in modules:
        function = vars(module).get(name)
        if isinstance(function, types.FunctionType) and function.__module__ == module.__name__:
            return function
    raise LookupError(f"no module of {[m.__name__ for m in modules]} defines {name}")


def in_batches(
    play: Callable[[int], int], seconds: float, first: int = 4, largest: int = 1 << 12
) -> tuple[int, int]:
    """Call ``play(n)`` (which plays ``n`` games in compiled code and returns their moves)
    for ``seconds``: ``(games, moves)``. The clock is read only between batches, which
    double during the first quarter of the time so that short games are not timed one by
    one and long ones do not overrun."""
    games = moves = 0
    batch = first
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        moves += int(play(batch))
        games += batch
        now = time.perf_counter()
        if now >= deadline:
            return games, moves
        if now - start < seconds / 4:
            batch = min(batch * 2, largest)
