"""The rules of Three in a Row, through the game protocol."""

from __future__ import annotations

from ludoteca.core.errors import IllegalMoveError, IllegalPositionError, MalformedError
from ludoteca.core.protocol import TERMINAL, Result, State

from .notation import MARKS, format_position, parse_square, square_name

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class ThreeRowState(State[int]):
    def __init__(self, game, cells: list[str] | None = None, mover: int = 0) -> None:
        self.game = game
        self.cells = list(cells) if cells is not None else ["."] * 9
        self.mover = mover
        self.history: list[int] = []

    def check(self) -> ThreeRowState:
        xs, os_ = self.cells.count("x"), self.cells.count("o")
        if xs - os_ != self.mover:
            raise IllegalPositionError(self.position(), "x moves first, then turns alternate")
        if (
            self._winner() is not None
            and sum(
                1
                for line in LINES
                if len({self.cells[i] for i in line} - {"."}) == 1
                and "." not in {self.cells[i] for i in line}
            )
            > 2
        ):
            raise IllegalPositionError(self.position(), "more lines than one last move makes")
        return self

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return MARKS.index(self.cells[a])
        return None

    @property
    def to_move(self) -> int:
        return TERMINAL if self.is_over else self.mover

    def legal_moves(self) -> list[int]:
        return [] if self.is_over else [i for i, c in enumerate(self.cells) if c == "."]

    def play(self, move: int | str) -> None:
        square = parse_square(move) if isinstance(move, str) else move
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 9:
            raise MalformedError(move, "a move is a square a1..c3 or its number 0..8")
        text = square_name(square)
        if self.is_over:
            raise IllegalMoveError(text, "the game is over")
        if self.cells[square] != ".":
            raise IllegalMoveError(text, "that square is already marked")
        self.cells[square] = MARKS[self.mover]
        self.mover = 1 - self.mover
        self.history.append(square)

    def undo(self) -> None:
        square = self.history.pop()
        self.cells[square] = "."
        self.mover = 1 - self.mover

    @property
    def is_over(self) -> bool:
        return self._winner() is not None or "." not in self.cells

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        winner = self._winner()
        if winner is None:
            return Result(winners=(), num_players=2, reason="the grid is full")
        return Result(winners=(winner,), num_players=2, reason=f"{MARKS[winner]} made a line")

    def clone(self) -> ThreeRowState:
        other = ThreeRowState(self.game, self.cells, self.mover)
        other.history = list(self.history)
        return other

    def position(self) -> str:
        return format_position(self.cells, self.mover)

    def move_to_str(self, move: int | str) -> str:
        return square_name(parse_square(move) if isinstance(move, str) else move)

    def str_to_move(self, text: str) -> int:
        return parse_square(text)

    def side_name(self, player: int) -> str:
        return MARKS[player]

    def move_cells(self, move: int | str) -> tuple[str, ...]:
        return (self.move_to_str(move),)

    def move_label(self, move: int | str) -> str:
        return f"Mark {self.move_to_str(move)}"
