"""A deliberately naive Kuniumi written straight from the rules file, for cross-checking.

No bitboards, no shared code with the engine: boards are dicts from (file, rank) to piece
letters, groups are found by breadth-first search, moves are produced as notation text.
Slow and obvious on purpose, so that agreement with the engine means something.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

FILES = "abcdef"
ORDER = "ESllss"
LAND = frozenset("El")
SEA = frozenset("Ss")


@dataclass(frozen=True)
class Pos:
    board: dict  # (file 0-5, rank 1-6) -> letter
    phase: str  # setup / choose / play
    to_move: str | None = None  # land / sea in play
    first: str | None = None  # the first player's side in play


def name(sq: tuple[int, int]) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def squares():
    return [(f, r) for r in range(1, 7) for f in range(6)]


def adjacent(sq):
    f, r = sq
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < 6 and 1 <= r + dr <= 6:
            yield (f + df, r + dr)


def parse(text: str) -> Pos:
    fields = text.split()
    board = {}
    for i, row in enumerate(fields[0].split("/")):
        rank = 6 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    if fields[1] == "play":
        return Pos(board, "play", fields[2], fields[3])
    return Pos(board, fields[1])


def groups(board: dict, letters) -> list[set]:
    seen: set = set()
    out = []
    for sq, letter in board.items():
        if letter not in letters or sq in seen:
            continue
        group = {sq}
        queue = deque([sq])
        while queue:
            for n in adjacent(queue.popleft()):
                if n not in group and board.get(n) in letters:
                    group.add(n)
                    queue.append(n)
        seen |= group
        out.append(group)
    return out


def closed_sizes(board: dict, letters) -> list[int]:
    """Sizes of the groups with no empty neighbouring square (edges are not free)."""
    return [
        len(g) for g in groups(board, letters) if all(n in board for sq in g for n in adjacent(sq))
    ]


def winner_by_closure(board: dict) -> str | None:
    """'land', 'sea', 'draw', or None when no group is closed."""
    land, sea = closed_sizes(board, LAND), closed_sizes(board, SEA)
    if not land and not sea:
        return None
    if not sea:
        return "land"
    if not land:
        return "sea"
    if max(land) == max(sea):
        return "draw"
    return "land" if max(land) > max(sea) else "sea"


def legal(pos: Pos) -> list[str]:
    if pos.phase == "setup":
        letter = ORDER[len(pos.board)]
        out = []
        for sq in squares():
            if sq in pos.board:
                continue
            after = dict(pos.board)
            after[sq] = letter
            if winner_by_closure(after) is None:
                out.append(f"{letter}@{name(sq)}")
        return sorted(out)
    if pos.phase == "choose":
        return ["choose land", "choose sea"]
    if winner_by_closure(pos.board) is not None:
        return []
    letters, god = (LAND, "E") if pos.to_move == "land" else (SEA, "S")
    god_sq = next(sq for sq, letter in pos.board.items() if letter == god)
    group = next(g for g in groups(pos.board, letters) if god_sq in g)
    files = {f for f, _ in group}
    ranks = {r for _, r in group}
    return sorted(
        f"{name(god_sq)}-{name(sq)}"
        for sq in squares()
        if sq not in pos.board and (sq[0] in files or sq[1] in ranks)
    )


def play(pos: Pos, move: str) -> Pos:
    board = dict(pos.board)
    if pos.phase == "setup":
        letter, where = move.split("@")
        board[(FILES.index(where[0]), int(where[1]))] = letter
        return Pos(board, "choose" if len(board) == 6 else "setup")
    if pos.phase == "choose":
        chosen = move.split()[1]
        first = "sea" if chosen == "land" else "land"
        return Pos(board, "play", first, first)
    a, b = move.split("-")
    origin = (FILES.index(a[0]), int(a[1]))
    dest = (FILES.index(b[0]), int(b[1]))
    god = board[origin]
    board[dest] = god
    board[origin] = "l" if god == "E" else "s"
    return Pos(board, "play", "sea" if pos.to_move == "land" else "land", pos.first)


def is_over(pos: Pos) -> bool:
    return pos.phase == "play" and (winner_by_closure(pos.board) is not None or not legal(pos))


def perft(pos: Pos, depth: int) -> int:
    if depth == 0:
        return 1
    if is_over(pos):
        return 0
    moves = legal(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, m), depth - 1) for m in moves)
