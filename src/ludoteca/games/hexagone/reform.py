"""Reforming a split block: can the pool be put back, and which placements keep it possible.

The rules make a placement legal only if the whole pool can still be placed afterwards, and
end the game when no order of placements completes the reform. That is a search over
orders; it is made cheap by these facts:

- pieces of one colour are interchangeable, so the pool is a count per colour;
- a configuration reached by different orders is the same configuration, so failures are
  remembered by the set of placements made (orders are never searched twice);
- hard colours first (the colour with most pieces left) and well-supported cells first
  usually complete the reform on the first descent, so feasible reforms cost one pass;
- a pool that fits on the cells allowed now, no two pieces of one colour side by side (a
  *spread*, :meth:`ReformSearch._spread`), can be placed in any order; unless the pool is
  large, one is found greedily, and it proves almost every placement legal in two lookups
  (the spread less one piece of the placed colour, the piece on the placed cell moved to a
  cell left free): no completion is needed at all;
- otherwise, once one completion is known, most placements are proved legal by that completion with
  one piece of their colour left out, or with two of its steps trading colours, and
  whether that works is decided by looking only at the cells around the two cells
  concerned (see :meth:`ReformSearch._replays`): a handful of lookups instead of a search;
  a placement on a cell the completion fills with another colour is also proved by that
  piece going last, onto a cell the whole completion leaves allowed for it
  (:meth:`ReformSearch._parks`);
- a placement those proofs miss is tried by replaying what still fits of the known
  completion and searching only the pieces left (:meth:`ReformSearch._repair`); the full
  search runs only when that fails, so every answer stays exact;
- when the position itself cannot be completed, no placement can be: nothing is searched.

The search keeps, for every empty cell next to the block, how many pieces it touches and how
many of each colour (three bits per colour packed in one int), updated as pieces are placed
and removed: taking a piece back is a subtraction, not a recount.
"""

from __future__ import annotations

from collections.abc import Container

from .geometry import NEIGHBOURS

SHIFT = tuple(3 * k for k in range(7))
"""Where colour ``k``'s count of touching pieces sits in a packed neighbourhood."""
UNIT = tuple(1 << s for s in SHIFT)
_NEAR = frozenset(NEIGHBOURS)
NO_PROOF = -1
"""What :meth:`ReformSearch._replays` returns when it proves nothing."""


class ReformSearch:
    """Placements onto ``cells`` (never changed) of the pieces counted in ``pool``."""

    __slots__ = (
        "cells",
        "pool",
        "touch",
        "near",
        "placed",
        "failed",
        "solution",
        "_saved",
        "_proof",
        "_head",
    )

    def __init__(self, cells: dict[int, int], pool: list[int], *, own: bool = False) -> None:
        """``own``: ``cells`` is a fresh dictionary the search may keep (no copy)."""
        self.cells = cells = cells if own else dict(cells)
        self.pool = list(pool)
        touch: dict[int, int] = {}
        near: dict[int, int] = {}
        tget, nget = touch.get, near.get
        for c, colour in cells.items():
            unit = UNIT[colour]
            for d in NEIGHBOURS:
                n = c + d
                if n not in cells:
                    touch[n] = tget(n, 0) + 1
                    near[n] = nget(n, 0) + unit
        self.touch = touch
        """Empty cell next to the block -> number of pieces it touches."""
        self.near = near
        """Empty cell next to the block -> its touching pieces counted per colour (packed)."""
        self.placed: list[tuple[int, int]] = []
        self._saved: list[tuple[int, int]] = []
        self.failed: set[frozenset[tuple[int, int]]] = set()
        self.solution: list[tuple[int, int]] = []
        """The placements (cell, colour) of the last completion found, from the start."""
        self._proof: tuple | None = None
        self._head: tuple | None = None
        """What :meth:`possible` found with nothing placed yet: the allowed cells and the
        spread, taken by the first :meth:`legal_placements` with nothing placed."""

    # --- incremental bookkeeping ------------------------------------------------------------
    def place(self, colour: int, c: int) -> None:
        cells, touch, near = self.cells, self.touch, self.near
        self._saved.append((touch.pop(c), near.pop(c)))
        cells[c] = colour
        self.pool[colour] -= 1
        self.placed.append((c, colour))
        self._proof = None
        unit = UNIT[colour]
        for d in NEIGHBOURS:
            n = c + d
            if n not in cells:
                touch[n] = touch.get(n, 0) + 1
                near[n] = near.get(n, 0) + unit

    def unplace(self) -> None:
        c, colour = self.placed.pop()
        cells, touch, near = self.cells, self.touch, self.near
        del cells[c]
        self.pool[colour] += 1
        self._proof = None
        unit = UNIT[colour]
        for d in NEIGHBOURS:
            n = c + d
            if n in cells:
                continue
            t = touch[n] - 1
            if t:
                touch[n] = t
                near[n] -= unit
            else:
                del touch[n]
                del near[n]
        touch[c], near[c] = self._saved.pop()

    # --- queries ----------------------------------------------------------------------------
    def touches(self, c: int, colour: int) -> bool:
        """Does the empty cell ``c`` touch a piece of ``colour``?"""
        return bool(self.near.get(c, 0) >> SHIFT[colour] & 7)

    def options(self) -> list[tuple[int, int]]:
        """Every (colour, cell) placement the setup rules allow now (feasibility aside), in
        ``(cell, colour)`` order: the order depends on the position only, never on what was
        searched before, so a seeded draw from it is reproducible."""
        pool = self.pool
        colours = [(k, SHIFT[k]) for k in range(7) if pool[k]]
        near = self.near
        out = []
        for c in sorted([c for c, t in self.touch.items() if t >= 2]):
            v = near[c]
            out.extend([(k, c) for k, s in colours if not v >> s & 7])
        return out

    def remaining(self) -> int:
        return sum(self.pool)

    def feasible(self) -> bool:
        """Can every pool piece still be placed, in some order?"""
        pool = self.pool
        if not any(pool):
            self.solution = list(self.placed)
            return True
        failed = self.failed
        if failed and frozenset(self.placed) in failed:
            return False
        touch, near = self.touch, self.near
        # most pieces first, ties in colour order (a reversed sort keeps ties in order)
        colours = sorted([k for k in range(7) if pool[k]], key=pool.__getitem__, reverse=True)
        cells = sorted([c for c, t in touch.items() if t >= 2], key=touch.__getitem__, reverse=True)
        for k in colours:
            shift = SHIFT[k]
            for c in cells:
                if near[c] >> shift & 7:
                    continue
                self.place(k, c)
                ok = self.feasible()
                self.unplace()
                if ok:
                    return True
        failed.add(frozenset(self.placed))
        return False

    def possible(self) -> bool:
        """:meth:`feasible`, proved at once when the pool can be spread over cells allowed
        now (:meth:`_spread`), as it usually can; no completion is kept then, but the spread
        is, for the listing of placements that follows."""
        fits = self._fits()
        spread = self._spread(fits)
        if spread is None:
            return self.feasible()
        if not self.placed:
            self._head = (fits, spread)
        return True

    def completion(self) -> list[tuple[int, int]] | None:
        """A way found earlier to place the rest of the pool from here, or ``None``."""
        n = len(self.placed)
        if self.solution[:n] == self.placed and (len(self.solution) > n or not any(self.pool)):
            return self.solution[n:]
        if self.feasible():
            return self.solution[n:]
        return None

    def legal_placements(self) -> list[tuple[int, int]]:
        """Placements after which the rest of the pool can still be placed, sorted by
        ``(cell, colour)``.

        A spread of the pool (:meth:`_spread`) proves most placements, each in a few
        lookups, and one made after the placement proves most of the others. When that
        fails (no spread: a pool larger than the room around the block), a completion from
        here is found (none: no placement is legal) and most placements are proved legal by
        rearranging it a little (:meth:`_replays`); only when that proof fails is a search
        run, and the completion it finds proves the placements after it.
        """
        left = self.remaining()
        if left <= 2:
            return self._last_two() if left == 2 else self.options()
        head, self._head = self._head, None
        if head is not None and not self.placed:  # the spread possible() found just here
            fits, first = head
        else:
            fits = self._fits()
            first = self._spread(fits)
        spread, around = first if first is not None else ({}, {})
        room = self._room(fits, spread, around)
        pool, near = self.pool, self.near
        colours = [(k, SHIFT[k]) for k in range(7) if pool[k]]
        proofs: list[tuple] = []  # completions from here, found only when a spread fails
        out = []
        for c in sorted([c for c, t in self.touch.items() if t >= 2]):
            v = near[c]
            j = spread.get(c)
            a = around.get(c, 0)
            for k, s in colours:
                if v >> s & 7:
                    continue  # not allowed now
                # the spread less a piece of colour ``k`` proves the placement: less the one
                # beside ``c`` if there is one (there may be only one), and with a piece it
                # puts on ``c`` of another colour moved to a cell left for it (``room``)
                if (
                    first is not None
                    and (
                        j == k
                        or a >> s & 7 <= 1
                        and (j is None or room[j] or self._trade(spread, around, k, c))
                        or self._spread_after(fits, k, c)
                    )
                    or self._proved(k, c, proofs)
                ):
                    out.append((k, c))
                elif not proofs:
                    return []  # no completion from here: no placement is legal
        if proofs:
            self._proof = proofs[0]  # still true: every search took back what it placed
        return out

    def _proved(self, k: int, c: int, proofs: list[tuple]) -> bool:
        """Is ``k`` on ``c`` (allowed now) legal, by a completion from here rearranged a
        little (:meth:`_replays`), else by a search? ``proofs`` holds the proof data of the
        completions known from here (the first one found now if empty; one more after each
        search that succeeds, which starts with its placement)."""
        if not proofs:
            proof = self._proof_data()
            if proof is None:
                return False
            proofs.append(proof)
        replays = self._replays
        for p in proofs:
            if replays(p, k, c) != NO_PROOF:
                return True
        if self._parks(proofs[0], k, c):
            return True
        self.place(k, c)
        ok = self._repair(proofs[0][0]) or self.feasible()
        self.unplace()
        if ok:
            proofs.append(self._prove(self.solution[len(self.placed) :]))
        return ok

    def _fits(self) -> list[list[int]]:
        """For each colour, the empty cells its pieces may go on now (touching two pieces,
        none of that colour); empty for colours not in the pool."""
        pool, near = self.pool, self.near
        cells = [c for c, t in self.touch.items() if t >= 2]
        return [
            [c for c in cells if not near[c] >> SHIFT[k] & 7] if pool[k] else [] for k in range(7)
        ]

    def _spread(
        self,
        fits: list[list[int]],
        avoid: Container[int] = (),
        around: dict[int, int] | None = None,
    ) -> tuple[dict[int, int], dict[int, int]] | None:
        """The whole pool on cells allowed now (:meth:`_fits`), outside ``avoid``, two pieces
        of one colour never side by side: ``(cell -> colour, cell -> the spread's colours
        around it, packed like`` :attr:`near` ``)``, or ``None``. Found greedily, colours with
        fewest cells first, so ``None`` proves nothing.

        Such a spread can be placed in any order: each cell touches two pieces already and
        placing pieces only adds to that; the only colours a placement brings around a
        cell are the spread's own, never the cell's. ``around`` starts the count of colours
        around (a piece placed first, see :meth:`_spread_after`)."""
        pool = self.pool
        spread: dict[int, int] = {}
        around = {} if around is None else around
        get = around.get
        for j in sorted([j for j in range(7) if pool[j]], key=lambda j: len(fits[j])):
            need = pool[j]
            shift, unit = SHIFT[j], UNIT[j]
            for e in fits[j]:
                if e in spread or e in avoid or get(e, 0) >> shift & 7:
                    continue
                spread[e] = j
                for d in NEIGHBOURS:
                    x = e + d
                    around[x] = get(x, 0) + unit
                need -= 1
                if not need:
                    break
            else:
                return None
        return spread, around

    @staticmethod
    def _room(fits: list[list[int]], spread: dict[int, int], around: dict[int, int]) -> list[bool]:
        """For each colour of a spread (:meth:`_spread`), is a cell allowed now for it left
        outside the spread, with no piece of that colour of the spread around it? A piece of
        that colour can move there from a cell a placement takes, and the spread stays
        one."""
        room = [False] * 7
        for j in set(spread.values()):
            shift = SHIFT[j]
            for e in fits[j]:
                if e not in spread and not around.get(e, 0) >> shift & 7:
                    room[j] = True
                    break
        return room

    def _trade(self, spread: dict[int, int], around: dict[int, int], k: int, c: int) -> bool:
        """With ``k`` on ``c``, a cell of the spread (:meth:`_spread`) holding another colour
        ``j`` and at most one piece of colour ``k`` of the spread beside it: can a cell of
        the spread holding colour ``k`` (that one, if there is one) take colour ``j``
        instead? Yes when colour ``j`` is allowed there now and no other piece of colour
        ``j`` of the spread is beside it; then the spread so changed, less ``c``, places the
        rest of the pool."""
        j = spread[c]
        shift = SHIFT[j]
        near = self.near
        beside = [c + d for d in NEIGHBOURS if spread.get(c + d) == k]
        for e in beside or [e for e, colour in spread.items() if colour == k]:
            # colour ``j`` allowed on ``e`` now, and beside it no piece of colour ``j`` of
            # the spread but the one on ``c`` (which becomes ``k``)
            if not near[e] >> shift & 7 and (around.get(e, 0) >> shift & 7) == ((e - c) in _NEAR):
                return True
        return False

    def _spread_after(self, fits: list[list[int]], k: int, c: int) -> bool:
        """After ``k`` on ``c``, can the rest of the pool be spread (:meth:`_spread`) on the
        cells allowed now but ``c``, none of colour ``k`` beside ``c``? Then ``c`` is legal:
        it adds to what the cells around it touch and only colour ``k``. Greedy, so
        ``False`` proves nothing; it spares most of the searches the replays of
        :meth:`_replays` cannot."""
        unit = UNIT[k]
        around = {c + d: unit for d in NEIGHBOURS}
        self.pool[k] -= 1
        try:
            return self._spread(fits, (c,), around) is not None
        finally:
            self.pool[k] += 1

    def _last_two(self) -> list[tuple[int, int]]:
        """:meth:`legal_placements` with two pieces in the pool, decided by the rules alone:
        a placement is legal when the last piece then has a cell (empty, touching two pieces,
        none of its colour). Those cells are the ones it has now, less the cell taken and,
        if both pieces have one colour, the cells around it; plus, for another colour, the
        empty cells around it that touched one piece and now touch two."""
        pool, touch, near, cells = self.pool, self.touch, self.near, self.cells
        fits = {}
        for k in range(7):
            if pool[k]:
                s = SHIFT[k]
                fits[k] = [c for c, t in touch.items() if t >= 2 and not near[c] >> s & 7]
        out = []
        for k, c in self.options():
            pool[k] -= 1
            last = next(j for j in range(7) if pool[j])
            pool[k] += 1
            ok = False
            for e in fits[last]:
                if e != c and (last != k or (e - c) not in _NEAR):
                    ok = True
                    break
            if not ok and last != k:
                s = SHIFT[last]
                for d in NEIGHBOURS:
                    e = c + d
                    if e not in cells and touch.get(e, 0) == 1 and not near[e] >> s & 7:
                        ok = True
                        break
            if ok:
                out.append((k, c))
        return out

    def _repair(self, path: list[tuple[int, int]]) -> bool:
        """Can the pool be completed by first replaying, in order, the steps of ``path`` that
        are still allowed, then searching the rest? ``True`` is a proof (the completion is in
        :attr:`solution`); ``False`` proves nothing. Cheaper than a search from here: after
        a placement the replay usually leaves one or two pieces to place."""
        pool, cells, touch, near = self.pool, self.cells, self.touch, self.near
        done = 0
        for c, k in path:
            if pool[k] and c not in cells and touch.get(c, 0) >= 2 and not near[c] >> SHIFT[k] & 7:
                self.place(k, c)
                done += 1
        ok = self.feasible()
        for _ in range(done):
            self.unplace()
        return ok

    def placement_ok(self, colour: int, c: int) -> bool:
        """Is this one placement legal (allowed now and completable)?"""
        if not self.pool[colour] or self.touch.get(c, 0) < 2 or self.near[c] >> SHIFT[colour] & 7:
            return False
        if self.remaining() == 1:  # the last piece: allowed is legal
            return True
        proof = self._proof_data()
        if proof is None:
            return False
        if self._replays(proof, colour, c) != NO_PROOF or self._spread_after(
            self._fits(), colour, c
        ):
            return True
        self.place(colour, c)
        ok = self._repair(proof[0]) or self.feasible()
        self.unplace()
        return ok

    def commit(self, colour: int, c: int) -> None:
        """Place a piece for good (a move played), keeping a completion from the new position
        when the known one proves the placement: then the next listing starts from it instead
        of searching one afresh."""
        proof = self._proof
        how = NO_PROOF if proof is None else self._replays(proof, colour, c)
        self.place(colour, c)
        if how == NO_PROOF:
            return
        path = proof[0]  # type: ignore[index]
        if how >= 0:  # the completion less its step ``how``
            rest = path[:how] + path[how + 1 :]
        else:  # the step on ``c`` done now; step ``s`` takes the colour it had
            s = -2 - how
            j = proof[1][c]  # type: ignore[index]
            rest = [(cell, path[j][1]) if i == s else (cell, k) for i, (cell, k) in enumerate(path)]
            del rest[j]
        self.solution = self.placed + rest

    def _proof_data(self) -> tuple | None:
        """The proof data (:meth:`_prove`) of the known completion from here, ``None`` when
        the reform cannot be completed; kept until the next placement or take-back."""
        if self._proof is not None:
            return self._proof
        path = self.completion()
        if path is None:
            return None
        self._proof = self._prove(path)
        return self._proof

    def _prove(self, path: list[tuple[int, int]]) -> tuple:
        """What :meth:`_replays` needs of a completion ``path`` from the current placements:
        for each of its cells the step that fills it; each step's colour; each colour's steps,
        last first; for each step the later steps touching it that touch only two pieces
        (they would fall below two without it: *fragile*); and for each step the colours of
        the block's pieces around its cell."""
        cells, near = self.cells, self.near
        step = {c: i for i, (c, _) in enumerate(path)}
        get = step.get
        colour = [k for _, k in path]
        steps_of: list[list[int]] = [[] for _ in range(7)]
        fragile: list[list[int]] = [[] for _ in path]
        for i, (c, k) in enumerate(path):
            support = 0
            earlier = []
            for d in NEIGHBOURS:
                n = c + d
                if n in cells:
                    support += 1
                else:
                    j = get(n, i)
                    if j < i:
                        support += 1
                        earlier.append(j)
            if support == 2:  # without one of the earlier steps it touches, it cannot go
                for j in earlier:
                    fragile[j].append(c)
            steps_of[k].insert(0, i)
        around = [near.get(c, 0) for c, _ in path]
        return (path, step, colour, steps_of, fragile, around, [])

    def _parks(self, proof: tuple, k: int, c: int) -> bool:
        """After placing ``k`` on ``c`` (allowed now), where the completion of ``proof`` puts
        another colour ``k2``: the completion less that step and less one step ``s`` of
        colour ``k``, then the ``k2`` piece last, on a cell allowed once all is placed?

        The other steps go as before: beside ``c`` they meet colour ``k`` sooner, so none
        of them may have colour ``k`` but ``s``; without ``s`` a step it supported keeps two
        pieces only if ``c``, now placed first, makes up for it. The last cell must lie
        outside the block and the completion, apart from ``c`` and from ``s``'s cell (so
        neither change counts), touching two pieces, none of colour ``k2``; the block and
        the completion around each cell are worked out once per completion."""
        path, step, colour, steps_of, fragile, _, extra = proof
        j0 = step.get(c)
        if j0 is None or colour[j0] == k:
            return False
        beside = [j for d in NEIGHBOURS if (j := step.get(c + d)) is not None and colour[j] == k]
        if len(beside) > 1:
            return False
        if not extra:  # what every empty cell touches once the completion is placed
            cells = self.cells
            touch, near = dict(self.touch), dict(self.near)
            for cell, _ in path:
                touch.pop(cell, None)
                near.pop(cell, None)
            for cell, k1 in path:
                unit = UNIT[k1]
                for d in NEIGHBOURS:
                    e = cell + d
                    if e not in cells and e not in step:
                        touch[e] = touch.get(e, 0) + 1
                        near[e] = near.get(e, 0) + unit
            extra += (touch, near)
        touch, near = extra
        shift = SHIFT[colour[j0]]
        for s in beside or steps_of[k]:
            if not all((f - c) in _NEAR and step[f] < j0 for f in fragile[s]):
                continue
            cell = path[s][0]
            for e, t in touch.items():
                if (
                    t >= 2
                    and not near[e] >> shift & 7
                    and (e - c) not in _NEAR
                    and (e - cell) not in _NEAR
                ):
                    return True
        return False

    @staticmethod
    def _replays(proof: tuple, k: int, c: int) -> int:
        """After placing ``k`` on ``c`` (allowed now), does a small change of the known
        completion place the rest of the pool by the setup rules? Returns how (for
        :meth:`commit`), or :data:`NO_PROOF`.

        - ``c`` is not in the completion: leave out one of its steps ``s`` of colour ``k``
          (returns ``s``). Only three things can break that replay: a step wants ``c`` (not
          here); a step puts colour ``k`` next to ``c``; a later step touched the piece left
          out and, without it and unless ``c`` makes up for it, touches fewer than two. Every
          other step touches at least what it touched and no new colour.
        - the completion puts colour ``k`` on ``c`` at step ``j``: the same, leaving out
          ``j``; that is the completion with step ``j`` done first.
        - the completion puts another colour ``k2`` on ``c``: do step ``j`` now with colour
          ``k``, and give colour ``k2`` to a step ``s`` of colour ``k`` instead (returns
          ``-2 - s``). No piece is missing, so every step touches as many as before; only
          colours can clash: around ``c`` with ``k``, around step ``s`` with ``k2``.

        A step of colour ``k`` next to ``c`` must be the one changed (left out or recoloured)."""
        path, step, colour, steps_of, fragile, around, _ = proof
        j0 = step.get(c)
        candidates: tuple[int, ...] | list[int]
        if j0 is None or colour[j0] == k:
            candidates = steps_of[k] if j0 is None else (j0,)
        else:
            candidates = steps_of[k]
        for d in NEIGHBOURS:
            j = step.get(c + d)
            if j is not None and colour[j] == k:
                if j not in candidates:
                    return NO_PROOF
                candidates = (j,)
        if j0 is not None and colour[j0] != k:
            k2 = colour[j0]
            shift = SHIFT[k2]
            for s in candidates:
                cell = path[s][0]
                if around[s] >> shift & 7:
                    continue
                for d in NEIGHBOURS:
                    j = step.get(cell + d)
                    if j is not None and j != j0 and colour[j] == k2:
                        break
                else:
                    return -2 - s
            return NO_PROOF
        for s in candidates:
            if path[s][0] == c:
                return s
            for n in fragile[s]:
                if (n - c) not in _NEAR:
                    break
            else:
                return s
        return NO_PROOF


def reform_possible(cells: dict[int, int], pool: list[int]) -> bool:
    return ReformSearch(cells, pool).feasible()
