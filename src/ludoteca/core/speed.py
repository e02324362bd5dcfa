"""Speed measurement shared by ``ludoteca bench`` and the scripts under ``bench/``.

Figures on a shared, noisy machine mean little alone, so each run can also compile and run
the C speed limit of the same game (``limit_<game>.c``) for the same time and report the
ratio, measured in the same run.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .protocol import Game
from .table import random_playout


def api_rate(game: Game, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Uniform random complete games through the protocol: (games, moves, elapsed)."""
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_state(seed=rng.randrange(2**31))
        moves += random_playout(state, rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, moves, now - start


def kernel_rate(game: Game, seconds: float, seed: int = 1) -> tuple[int, int, float] | None:
    """The game's compiled playout kernel, if it has one: (games, moves, elapsed).

    One short call first pays any compilation, outside the measurement.
    """
    kernel = game.playout_kernel()
    if kernel is None:
        return None
    kernel(seed, 0.01)
    start = time.perf_counter()
    games, moves = kernel(seed + 1, seconds)
    return games, moves, time.perf_counter() - start


def find_limit_source(game_id: str, where: str | None = None) -> Path | None:
    """``limit_<game>.c`` in ``where``, ``$LUDOTECA_LIMITS``, or ``../shared/limits``."""
    candidates = [
        where,
        os.environ.get("LUDOTECA_LIMITS"),
        str(Path.cwd().parent / "shared" / "limits"),
    ]
    for folder in filter(None, candidates):
        path = Path(folder) / f"limit_{game_id}.c"
        if path.is_file():
            return path
    return None


def c_limit_rate(source: Path, seconds: float) -> dict | None:
    """Compile and run a C limit; its JSON line, or ``None`` when no compiler is present."""
    with compiled_limit(source) as run:
        return None if run is None else run(seconds)


@contextlib.contextmanager
def compiled_limit(source: Path | None) -> Iterator[Callable[[float], dict] | None]:
    """A C limit compiled once, to run for some seconds as often as asked (``None``: no
    source or no compiler). Each run gives the program's JSON line."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if source is None or cc is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / source.stem
        subprocess.run([cc, "-O2", "-march=native", "-o", str(exe), str(source)], check=True)

        def run(seconds: float) -> dict:
            out = subprocess.run(
                [str(exe), str(seconds)], check=True, capture_output=True, text=True
            )
            return json.loads(out.stdout.strip().splitlines()[-1])

        yield run
