"""A tiny game the web tests play: noughts and crosses on a 3 × 3 board, preceded by a
coin toss (a chance node) that decides who starts.

The web club is generic over the protocol, so its own tests use a game whose every line is
visible here; the real games are exercised by the browser tests. ``install()`` registers it
in this process (the test server launcher calls it before starting the app).
"""

from __future__ import annotations

from ludoteca.core.errors import IllegalMoveError, IllegalPositionError, MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Result, State

CELLS = [f"{f}{r}" for r in "123" for f in "abc"]
LINES = [
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
]
TOSSES = ("toss x", "toss o")


class ToyState(State):
    def __init__(self, game: ToyGame) -> None:
        self.game = game
        self.board = ["."] * 9
        self.first: int | None = None
        self.history: list[str] = []

    @property
    def to_move(self) -> int:
        if self.first is None:
            return CHANCE
        if self.is_over:
            return TERMINAL
        placed = sum(c != "." for c in self.board)
        return (self.first + placed) % 2

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.board[a] != "." and self.board[a] == self.board[b] == self.board[c]:
                return "xo".index(self.board[a])
        return None

    @property
    def is_over(self) -> bool:
        return self.first is not None and (self._winner() is not None or "." not in self.board)

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        w = self._winner()
        return Result(
            winners=() if w is None else (w,),
            num_players=2,
            reason=Text("three in a line") if w is not None else Text("the board is full"),
        )

    def legal_moves(self):
        if self.first is None:
            return list(TOSSES)
        if self.is_over:
            return []
        return [c for c, v in zip(CELLS, self.board, strict=True) if v == "."]

    def chance_outcomes(self):
        return [(t, 0.5) for t in TOSSES] if self.first is None else []

    def str_to_move(self, text: str):
        t = text.strip().lower()
        if t in TOSSES or t in CELLS:
            return t
        raise MalformedError(text, "a move is a cell a1..c3 (or a toss)")

    def move_to_str(self, move) -> str:
        return str(move)

    def move_cells(self, move) -> tuple[str, ...]:
        """A mark names its cell; a toss names none (the table plays it)."""
        text = str(move)
        return (text,) if text in CELLS else ()

    def play(self, move) -> None:
        text = move if isinstance(move, str) else str(move)
        m = self.str_to_move(text)
        if m not in self.legal_moves():
            raise IllegalMoveError(text, "the game is over" if self.is_over else "not a legal move")
        if m in TOSSES:
            self.first = TOSSES.index(m)
        else:
            self.board[CELLS.index(m)] = "xo"[self.to_move]
        self.history.append(m)

    def clone(self) -> ToyState:
        s = ToyState(self.game)
        s.board = list(self.board)
        s.first = self.first
        s.history = list(self.history)
        return s

    def position(self) -> str:
        first = "-" if self.first is None else "xo"[self.first]
        return "".join(self.board) + " " + first

    def last_move_summary(self) -> str | None:
        if not self.history or self.history[-1] in TOSSES:
            return None
        mark = self.board[CELLS.index(self.history[-1])]
        cell = self.history[-1]
        return (
            Text("cross took {cell}", {"cell": cell})
            if mark == "x"
            else Text("nought took {cell}", {"cell": cell})
        )

    def side_name(self, player: int) -> str:
        return ("cross", "nought")[player]


class ToyGame(Game):
    id = "toy"
    title = "Toy noughts"
    has_chance = True
    can_end_drawn = True  # a full board with no line
    max_game_length = 10
    move_help = "Type a cell, a1..c3."

    def new_state(self, seed=None) -> ToyState:
        return ToyState(self)

    def from_position(self, text: str) -> ToyState:
        parts = text.split()
        if len(parts) != 2 or len(parts[0]) != 9 or set(parts[0]) - set(".xo"):
            raise MalformedError(text, "a position is 9 of . x o and the first player")
        s = ToyState(self)
        s.board = list(parts[0])
        s.first = None if parts[1] == "-" else "xo".index(parts[1])
        if s.first is None and parts[0] != "." * 9:
            raise IllegalPositionError(text, "pieces before the toss")
        return s

    def render_svg(self, state, *, highlight=()) -> str:
        out = ['<svg xmlns="http://www.w3.org/2000/svg" class="board toy" viewBox="0 0 300 300">']
        for i, cell in enumerate(CELLS):
            x, y = (i % 3) * 100, (2 - i // 3) * 100
            cls = "cell highlight" if cell in highlight else "cell"
            out.append(
                f'<rect class="{cls}" data-cell="{cell}" x="{x}" y="{y}" width="100" '
                f'height="100" fill="#fff" stroke="#333"/>'
            )
            if state.board[i] != ".":
                out.append(
                    f'<text class="piece" data-cell="{cell}" x="{x + 50}" y="{y + 65}" '
                    f'font-size="50" text-anchor="middle">{state.board[i]}</text>'
                )
        out.append("</svg>")
        return "".join(out)


def install() -> None:
    """Register the toy game in this process's registry."""
    from ludoteca.core.registry import register

    register(ToyGame)
