"""Comune: place pieces at three angles, never beside an opponent piece of another angle.

The engine (:mod:`.state`) plays whole turns on the protocol and single placements for
search; :mod:`.flat` holds the rules arithmetic shared with the compiled kernel
(:mod:`.jit`); :mod:`.notation` reads and writes the binding notation.
"""

from .game import Comune

GAME = Comune

__all__ = ["GAME", "Comune"]
