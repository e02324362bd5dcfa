"""A deliberately naive Comino reference, written from the rules text alone.

It shares no code with the engine: tiles are enumerated from all colourings, legality is
checked by comparing the corner points of every neighbouring tile, colour areas are
found by union-find over every pair of tiles. Slow, but obviously right; the tests compare
the engine with it.
"""

from __future__ import annotations

from itertools import product


def turn(tile: str) -> str:
    """A quarter turn clockwise: every colour moves one place on."""
    return tile[3] + tile[0:3]


def all_turns(tile: str) -> list[str]:
    out = [tile]
    for _ in range(3):
        out.append(turn(out[-1]))
    return out


def reference_tile_set() -> set[str]:
    names = set()
    for colours in product("BRY", repeat=4):
        tile = "".join(colours)
        if len(set(tile)) >= 2 or tile in ("YYYY", "RRRR"):
            names.add(min(all_turns(tile)))
    return names


def corners(x: int, y: int, tile: str) -> dict[tuple[int, int], str]:
    """Grid point -> colour for a tile on square (x, y); y grows upwards."""
    return {(x, y + 1): tile[0], (x + 1, y + 1): tile[1], (x + 1, y): tile[2], (x, y): tile[3]}


def fits(board: dict[tuple[int, int], str], x: int, y: int, tile: str) -> bool:
    if (x, y) in board:
        return False
    if not any((x + dx, y + dy) in board for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))):
        return False
    mine = corners(x, y, tile)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = board.get((x + dx, y + dy))
            if other is None or (dx == 0 and dy == 0):
                continue
            theirs = corners(x + dx, y + dy, other)
            for point, colour in mine.items():
                if point in theirs and theirs[point] != colour:
                    return False
    return True


def legal(board: dict[tuple[int, int], str], hand: set[str]) -> list[str]:
    """Every distinct legal placement as text, else every removal."""
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    found = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            for name in hand:
                for tile in all_turns(name):
                    if fits(board, x, y, tile):
                        found.add(f"{tile}@{x},{y}")
    if found:
        return sorted(found)
    return sorted(f"remove {name}" for name in hand)


def areas(board: dict[tuple[int, int], str], colour: str) -> list[set[tuple[int, int]]]:
    """The colour areas of ``colour``: tiles linked by shared points of that colour."""
    squares = sorted(board)
    parent = {s: s for s in squares}

    def find(s):
        while parent[s] != s:
            s = parent[s]
        return s

    coloured = {s: {p for p, c in corners(*s, board[s]).items() if c == colour} for s in squares}
    for i, a in enumerate(squares):
        for b in squares[i + 1 :]:
            if coloured[a] & coloured[b]:
                parent[find(a)] = find(b)
    groups: dict = {}
    for s in squares:
        groups.setdefault(find(s), set()).add(s)
    return list(groups.values())


def placement_score(board: dict[tuple[int, int], str], x: int, y: int, tile: str) -> int:
    """Points for placing ``tile`` at (x, y) (board before the placement)."""
    after = dict(board)
    after[(x, y)] = tile
    total = 0
    for colour in set(tile):
        for area in areas(after, colour):
            if (x, y) in area:
                total += len(area) - 1
    return total


def perft(board, hands, to_move: int, depth: int) -> int:
    """Count move sequences of a post-deal position (hands: two sets of names)."""
    if depth == 0:
        return 1
    if not hands[0] and not hands[1]:
        return 0
    moves = legal(board, hands[to_move])
    if depth == 1:
        return len(moves)
    total = 0
    for text in moves:
        new_board = dict(board)
        new_hands = [set(hands[0]), set(hands[1])]
        if text.startswith("remove "):
            new_hands[to_move].discard(text[7:])
        else:
            tile, square = text.split("@")
            x, y = map(int, square.split(","))
            new_board[(x, y)] = tile
            new_hands[to_move].discard(min(all_turns(tile)))
        total += perft(new_board, new_hands, 1 - to_move, depth - 1)
    return total


def parse_board(text: str) -> dict[tuple[int, int], str]:
    board = {}
    for entry in text.split(";"):
        tile, square = entry.split("@")
        x, y = map(int, square.split(","))
        board[(x, y)] = tile
    return board
