"""Reforming a split block: can the pool be put back, and which placements keep it possible.

The rules make a placement legal only if the whole pool can still be placed afterwards, and
end the game when no order of placements completes the reform. That is a search over
orders; it is made cheap by three facts:

- pieces of one colour are interchangeable, so the pool is a count per colour;
- a configuration reached by different orders is the same configuration, so failures are
  remembered by the set of placements made (orders are never searched twice);
- hard colours first (the colour with most pieces left) and well-supported cells first
  usually complete the reform on the first descent, so feasible reforms cost one pass.

The search keeps, for every empty cell next to the block, how many pieces it touches and a
bit mask of the colours it touches, updated as pieces are placed and removed.
"""

from __future__ import annotations

from .geometry import NEIGHBOURS


class ReformSearch:
    """Placements onto ``cells`` (never changed) of the pieces counted in ``pool``."""

    def __init__(self, cells: dict[int, int], pool: list[int]) -> None:
        self.cells = dict(cells)
        self.pool = list(pool)
        self.touch: dict[int, int] = {}
        self.mask: dict[int, int] = {}
        for c, colour in self.cells.items():
            self._add_around(c, colour)
        self.placed: list[tuple[int, int]] = []
        self.failed: set[frozenset[tuple[int, int]]] = set()
        self.solution: list[tuple[int, int]] = []
        """The placements (cell, colour) of the last completion found, from the start."""

    # --- incremental bookkeeping ------------------------------------------------------------
    def _add_around(self, c: int, colour: int) -> None:
        cells, touch, mask = self.cells, self.touch, self.mask
        bit = 1 << colour
        for d in NEIGHBOURS:
            n = c + d
            if n not in cells:
                touch[n] = touch.get(n, 0) + 1
                mask[n] = mask.get(n, 0) | bit

    def place(self, colour: int, c: int) -> None:
        cells, touch, mask = self.cells, self.touch, self.mask
        del touch[c]
        del mask[c]
        cells[c] = colour
        self.pool[colour] -= 1
        self.placed.append((c, colour))
        self._add_around(c, colour)

    def unplace(self) -> None:
        c, colour = self.placed.pop()
        cells, touch, mask = self.cells, self.touch, self.mask
        del cells[c]
        self.pool[colour] += 1
        for d in NEIGHBOURS:
            n = c + d
            if n in cells:
                continue
            t = touch[n] - 1
            if t == 0:
                del touch[n]
                del mask[n]
                continue
            touch[n] = t
            m = 0
            for e in NEIGHBOURS:
                k = cells.get(n + e)
                if k is not None:
                    m |= 1 << k
            mask[n] = m
        # the cell itself becomes empty again: recount what it touches
        t = m = 0
        for e in NEIGHBOURS:
            k = cells.get(c + e)
            if k is not None:
                t += 1
                m |= 1 << k
        touch[c] = t
        mask[c] = m

    # --- queries ----------------------------------------------------------------------------
    def options(self) -> list[tuple[int, int]]:
        """Every (colour, cell) placement the setup rules allow now (feasibility aside)."""
        pool = self.pool
        colours = [k for k in range(7) if pool[k]]
        mask = self.mask
        return [
            (k, c) for c, t in self.touch.items() if t >= 2 for k in colours if not mask[c] >> k & 1
        ]

    def remaining(self) -> int:
        return sum(self.pool)

    def feasible(self) -> bool:
        """Can every pool piece still be placed, in some order?"""
        if not any(self.pool):
            self.solution = list(self.placed)
            return True
        key = frozenset(self.placed)
        if key in self.failed:
            return False
        pool, touch, mask = self.pool, self.touch, self.mask
        colours = sorted((k for k in range(7) if pool[k]), key=lambda k: -pool[k])
        cells = sorted((c for c, t in touch.items() if t >= 2), key=lambda c: -touch[c])
        for k in colours:
            bit = 1 << k
            for c in cells:
                if mask[c] & bit:
                    continue
                self.place(k, c)
                ok = self.feasible()
                self.unplace()
                if ok:
                    return True
        self.failed.add(key)
        return False

    def completion(self) -> list[tuple[int, int]] | None:
        """A way found earlier to place the rest of the pool from here, or ``None``."""
        n = len(self.placed)
        if self.solution[:n] == self.placed and (len(self.solution) > n or not any(self.pool)):
            return self.solution[n:]
        if self.feasible():
            return self.solution[n:]
        return None

    def legal_placements(self) -> list[tuple[int, int]]:
        """Placements after which the rest of the pool can still be placed, sorted.

        One completion from here is found first; most other placements are then proved
        legal by replaying that completion after them (skipping one piece of their colour),
        which costs a pass instead of a search. Only when the replay breaks is one searched.
        """
        out = []
        path = self.completion()
        for k, c in self.options():
            self.place(k, c)
            if (path and self._replays(path, k)) or self.feasible():
                out.append((k, c))
            self.unplace()
        out.sort(key=lambda kc: (kc[1], kc[0]))
        return out

    def placement_ok(self, colour: int, c: int) -> bool:
        """Is this one placement legal (allowed now and completable)?"""
        if not self.pool[colour] or self.touch.get(c, 0) < 2 or self.mask[c] >> colour & 1:
            return False
        path = self.completion()
        self.place(colour, c)
        ok = bool(path and self._replays(path, colour)) or self.feasible()
        self.unplace()
        return ok

    def _replays(self, path: list[tuple[int, int]], colour: int) -> bool:
        """After a placement of ``colour``, does ``path`` minus its last piece of that colour
        still place the whole pool, every piece by the setup rules? State is restored."""
        skip = max(i for i, (_, k) in enumerate(path) if k == colour)
        done = 0
        ok = True
        for i, (c, k) in enumerate(path):
            if i == skip:
                continue
            if c in self.cells or self.touch.get(c, 0) < 2 or self.mask[c] >> k & 1:
                ok = False
                break
            self.place(k, c)
            done += 1
        for _ in range(done):
            self.unplace()
        return ok


def reform_possible(cells: dict[int, int], pool: list[int]) -> bool:
    return ReformSearch(cells, pool).feasible()
