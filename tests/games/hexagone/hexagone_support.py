"""Shared helpers for the Hexagone tests: positions written by hand, and an independent
brute-force reference of the rules used to check the engine's move lists and perft counts.

The reference is deliberately naive and shares no code with the engine: cells are ``(q, r)``
tuples, moves are strings, every pair of cells is tried for a swap, and a reform is searched
over every order of every placement without memory.
"""

from __future__ import annotations

import json
from collections import Counter

import ludoteca.core as core

COLOURS = "ROYGBPW"
DICE = "ROYGBP"
DELTAS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def line(colours: str, r: int = 0, q0: int = 0) -> dict[str, str]:
    """Pieces along row ``r`` from ``q0``: ``line("ROY")`` is R on 0,0, O on 1,0, Y on 2,0."""
    return {f"{q0 + i},{r}": c for i, c in enumerate(colours)}


def position(
    cells: dict[str, str],
    *,
    phase: str = "roll",
    dice: str | None = None,
    pool: str = "",
    players: int = 2,
    captured: list[str] | None = None,
    rolled: int | None = None,
    rolls_left: int | None = None,
    since: int = 0,
    to_move: int = 0,
) -> str:
    """Position text; the pieces not on the table, in the pool or given in ``captured`` are
    added to the last player's pile so that every colour has its six pieces."""
    piles = [list(p) for p in (captured or [""] * players)]
    if players == 4 and "W" not in piles[3]:
        piles[3].append("W")
    have = Counter(cells.values()) + Counter(pool) + Counter("".join("".join(p) for p in piles))
    for colour in COLOURS:
        piles[-1].extend(colour * (6 - have[colour]))
    if rolled is None:
        rolled = 0 if phase in ("roll", "over") else 1
    if players == 1 and rolls_left is None:
        rolls_left = 10
    return json.dumps(
        {
            "captured": [sorted(p, key=COLOURS.index) for p in piles],
            "cells": cells,
            "dice": dice,
            "phase": phase,
            "pool": sorted(pool, key=COLOURS.index),
            "rolled_this_turn": rolled,
            "rolls_left": rolls_left,
            "since_capture": since,
            "to_move": to_move,
        }
    )


def load(text: str, players: int | None = None):
    return core.get("hexagone", players=players or 1).from_position(text)


# --- the brute-force reference --------------------------------------------------------------


def parse_cell(text: str) -> tuple[int, int]:
    q, r = text.split(",")
    return int(q), int(r)


def fmt(c: tuple[int, int]) -> str:
    return f"{c[0]},{c[1]}"


def adjacent(a, b) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DELTAS


def neighbours(c):
    return [(c[0] + dq, c[1] + dr) for dq, dr in DELTAS]


def components(cells: set) -> list[list]:
    out = []
    left = set(cells)
    while left:
        todo = [min(left)]
        part = set(todo)
        while todo:
            c = todo.pop()
            for n in neighbours(c):
                if n in left and n not in part:
                    part.add(n)
                    todo.append(n)
        left -= part
        out.append(sorted(part))
    return sorted(out)


class Ref:
    """A position of the reference: plain data, copied on every move."""

    def __init__(self, text: str) -> None:
        d = json.loads(text)
        self.cells = {parse_cell(k): v for k, v in d["cells"].items()}
        self.phase = d["phase"]
        self.dice = d["dice"]
        self.pool = list(d["pool"])
        self.captured = [list(p) for p in d["captured"]]
        self.rolled = d["rolled_this_turn"]
        self.rolls_left = d["rolls_left"]
        self.since = d["since_capture"]
        self.player = d["to_move"]

    def copy(self) -> Ref:
        other = Ref.__new__(Ref)
        other.__dict__ = dict(self.__dict__)
        other.cells = dict(self.cells)
        other.pool = list(self.pool)
        other.captured = [list(p) for p in self.captured]
        return other

    # moves ------------------------------------------------------------------------------
    def moves(self) -> list[str]:
        if self.phase == "roll":
            present = set(self.cells.values())
            return [
                f"roll {a}{b}"
                for i, a in enumerate(DICE)
                for b in DICE[i:]
                if a in present or b in present
            ]
        if self.phase == "swap":
            out = []
            cells = sorted(self.cells)
            a, b = self.dice
            for i, x in enumerate(cells):
                for y in cells[i + 1 :]:
                    kx, ky = self.cells[x], self.cells[y]
                    if kx == ky:
                        continue
                    if (
                        a == b
                        and a in (kx, ky)
                        or adjacent(x, y)
                        and (kx in (a, b) or ky in (a, b))
                    ):
                        out.append(f"swap {fmt(x)} {fmt(y)}")
            return out
        if self.phase == "second":
            return ["again", "stop"]
        if self.phase == "main":
            return [f"main {fmt(p[0])}" for p in self.main_choices()]
        if self.phase == "reform":
            out = []
            for colour, c in placements(self.cells, self.pool):
                cells = dict(self.cells)
                cells[c] = colour
                pool = list(self.pool)
                pool.remove(colour)
                if completable(cells, pool):
                    out.append(f"place {colour} {fmt(c)}")
            return out
        return []

    def main_choices(self) -> list[list]:
        parts = components(set(self.cells))
        size = max(len(p) for p in parts)
        out = []
        for p in parts:
            if len(p) == size:
                keep = {c: self.cells[c] for c in p}
                pool = [k for c, k in self.cells.items() if c not in keep]
                if completable(keep, pool):
                    out.append(p)
        return out

    def play(self, move: str) -> Ref:
        s = self.copy()
        words = move.split()
        if words[0] == "roll":
            s.dice = words[1]
            s.rolled += 1
            if s.rolls_left is not None:
                s.rolls_left -= 1
            s.phase = "swap"
        elif words[0] == "swap":
            x, y = parse_cell(words[1]), parse_cell(words[2])
            s.cells[x], s.cells[y] = s.cells[y], s.cells[x]
            s.dice = None
            taken = set()
            for c in (x, y):
                grp = {c}
                todo = [c]
                while todo:
                    d = todo.pop()
                    for n in neighbours(d):
                        if n not in grp and s.cells.get(n) == s.cells[c]:
                            grp.add(n)
                            todo.append(n)
                if len(grp) >= 3:
                    taken |= grp
            if not taken:
                if len(s.captured) == 1 or s.rolled == 2:
                    s.end_turn(False)
                else:
                    s.phase = "second"
            else:
                for c in taken:
                    s.captured[s.player].append(s.cells.pop(c))
                parts = components(set(s.cells))
                if len(parts) <= 1:
                    s.end_turn(True)
                else:
                    choices = s.main_choices()
                    size = max(len(p) for p in parts)
                    tied = sum(1 for p in parts if len(p) == size)
                    if not choices:
                        # Decision (ended games): the capture counts, and with one largest
                        # section its rivals' pieces have left for the pool.
                        s.since = 0
                        if tied == 1:
                            main = next(p for p in parts if len(p) == size)
                            for c in [c for c in s.cells if c not in main]:
                                s.pool.append(s.cells.pop(c))
                        s.phase = "over"
                        s.dice, s.rolled = None, 0
                    elif tied == 1:
                        s.keep(choices[0])
                    else:
                        s.phase = "main"
        elif words[0] == "again":
            s.phase = "roll"
        elif words[0] == "stop":
            s.end_turn(False)
        elif words[0] == "main":
            cell = parse_cell(words[1])
            s.keep(next(p for p in components(set(s.cells)) if cell in p))
        elif words[0] == "place":
            s.cells[parse_cell(words[2])] = words[1]
            s.pool.remove(words[1])
            if not s.pool:
                s.end_turn(True)
        return s

    def keep(self, part) -> None:
        for c in [c for c in self.cells if c not in part]:
            self.pool.append(self.cells.pop(c))
        self.phase = "reform"

    def end_turn(self, captured: bool) -> None:
        self.since = 0 if captured else self.since + 1
        counts = Counter(self.cells.values())
        if (
            len(self.cells) <= 10
            or max(counts.values(), default=0) < 3
            or self.since >= 40
            or self.rolls_left == 0
        ):
            self.phase = "over"
        else:
            self.player = (self.player + 1) % len(self.captured)
            self.phase = "roll"
            self.rolled = 0


def placements(cells: dict, pool: list) -> list[tuple[str, tuple]]:
    """Every (colour, cell) the setup rules allow, ignoring what comes after."""
    empty = {n for c in cells for n in neighbours(c) if n not in cells}
    out = []
    for c in sorted(empty):
        around = [cells[n] for n in neighbours(c) if n in cells]
        if len(around) < 2:
            continue
        for colour in sorted(set(pool)):
            if colour not in around:
                out.append((colour, c))
    return out


def completable(cells: dict, pool: list) -> bool:
    """Every order of every placement, no memory: only for small pools."""
    if not pool:
        return True
    for colour, c in placements(cells, pool):
        cells[c] = colour
        pool.remove(colour)
        ok = completable(cells, pool)
        pool.append(colour)
        del cells[c]
        if ok:
            return True
    return False


def ref_perft(state: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.moves()
    if depth == 1:
        return len(moves)
    return sum(ref_perft(state.play(m), depth - 1) for m in moves)
