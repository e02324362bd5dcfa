"""Tiny games written against the protocol, so core pieces (records, perft, the harness, the
CLI) are tested on something whose every count can be worked out by hand.

``race``: a counter starts at 0; players alternately add 1 or 2; whoever makes it reach
exactly ``target`` (default 5) wins. Moves are ``+1`` / ``+2``. Position: ``<count> <player>``.
With option ``dice=1`` a coin is tossed before each player's turn (``coin 0`` or ``coin 1``,
each 1/2) and its value is added to the counter first; a coin that reaches the target ends
the game in a draw (the counter is then shown as ``target + 1``).
"""

from __future__ import annotations

from ludoteca.core.errors import IllegalMoveError, IllegalPositionError, MalformedError
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Result, State
from ludoteca.core.registry import register


class RaceState(State):
    def __init__(self, game: RaceGame, count: int = 0, player: int = 0, coin_due: bool = False):
        self.game = game
        self.count = count
        self.player = player
        self.coin_due = coin_due
        self.history: list[tuple[int, int, bool]] = []

    @property
    def target(self) -> int:
        return self.game.target

    @property
    def to_move(self) -> int:
        if self.is_over:
            return TERMINAL
        return CHANCE if self.coin_due else self.player

    @property
    def is_over(self) -> bool:
        return self.count >= self.target

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        if self.count > self.target:  # a coin overshot: nobody wins
            return Result((), 2, reason="overshot")
        # the player who made the last move won: that is the one *not* to move now
        return Result((1 - self.player,), 2, reason=f"reached {self.target}")

    def legal_moves(self) -> list:
        if self.is_over:
            return []
        if self.coin_due:
            return ["coin 0", "coin 1"]
        return [m for m in (1, 2) if self.count + m <= self.target]

    def chance_outcomes(self):
        return [("coin 0", 0.5), ("coin 1", 0.5)] if self.coin_due and not self.is_over else []

    def str_to_move(self, text: str):
        text = text.strip()
        if text in ("coin 0", "coin 1"):
            return text
        if text in ("+1", "+2"):
            return int(text[1])
        raise MalformedError(text, "a race move is +1 or +2 (or a coin toss)")

    def move_to_str(self, move) -> str:
        return move if isinstance(move, str) else f"+{move}"

    def play(self, move) -> None:
        move = self.coerce_move(move)
        if move not in self.legal_moves():
            raise IllegalMoveError(self.move_to_str(move), "not legal here")
        self.history.append((self.count, self.player, self.coin_due))
        if isinstance(move, str):
            self.count += int(move[-1])
            if self.count >= self.target:
                self.count = self.target + 1  # a coin that reaches the target: a draw
            self.coin_due = False
        else:
            self.count += move
            self.player = 1 - self.player
            self.coin_due = self.game.dice
        return None

    def undo(self) -> None:
        self.count, self.player, self.coin_due = self.history.pop()

    def clone(self) -> RaceState:
        copy = RaceState(self.game, self.count, self.player, self.coin_due)
        copy.history = list(self.history)
        return copy

    def position(self) -> str:
        return f"{self.count} {self.player}{' c' if self.coin_due else ''}"

    def side_name(self, player: int) -> str:
        return ("north", "south")[player]


class RaceGame(Game):
    id = "race"
    title = "Race (test game)"
    max_game_length = 40

    def __init__(self, **options):
        super().__init__(**options)
        self.target = int(options.get("target", 5))
        self.dice = bool(int(options.get("dice", 0)))

    def new_state(self, seed=None) -> RaceState:
        return RaceState(self, 0, 0, self.dice)

    def from_position(self, text: str) -> RaceState:
        parts = text.split()
        if len(parts) not in (2, 3) or not parts[0].isdigit() or parts[1] not in ("0", "1"):
            raise MalformedError(text, "a race position is '<count> <player> [c]'")
        if len(parts) == 3 and parts[2] != "c":
            raise MalformedError(text, "the third field, if present, is 'c'")
        count = int(parts[0])
        if count > self.target + 1:
            raise IllegalPositionError(text, f"the counter never passes {self.target + 1}")
        return RaceState(self, count, int(parts[1]), len(parts) == 3)


def register_toys() -> None:
    register(RaceGame)
