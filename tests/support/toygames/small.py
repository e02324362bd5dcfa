"""Small games with known best play, written against the protocol, to test the bots.

- ``toy-nim``: two players take 1 to 3 from a pile; taking the last wins. Best play leaves a
  multiple of 4, so a pile that is a multiple of 4 is lost for the player to move.
- ``toy-gamble``: player 1 picks ``safe`` (wins with probability 0.3) or ``risky`` (0.7),
  then chance decides. Best play is ``risky``.
- ``toy-nim3``: three players take 1 or 2 from a pile in turn; taking the last wins.
- ``toy-pick``: two players take one or two items from a pool of items worth 0, 1, 2, ...
  in turn; the larger total wins. A turn of two items is searched one item at a time (the
  state has ``move_steps``).
- ``toy-coins``: a solo game of a few rounds; chance shows a coin of value 1 to 3, the player
  ``take``s it (adding its value) or ``skip``s; taking costs the next round. The score is
  what was taken.
"""

from __future__ import annotations

from ludoteca.core.errors import IllegalMoveError, MalformedError
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Result, State
from ludoteca.core.registry import register


class _ToyState(State):
    """Shared plumbing: history-based undo, parsing of simple word/number moves."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list = []

    def move_to_str(self, move) -> str:
        return str(move)

    def play(self, move) -> None:
        text = move if isinstance(move, str) else None
        move = self.coerce_move(move)
        allowed = (
            [m for m, _ in self.chance_outcomes()] if self.to_move == CHANCE else self.legal_moves()
        )
        if move not in allowed:
            shown = text if text is not None else self.move_to_str(move)
            raise IllegalMoveError(shown, "the game is over" if self.is_over else "not legal here")
        self.history.append(self._snapshot())
        self._apply(move)

    def undo(self) -> None:
        self._restore(self.history.pop())

    @property
    def is_over(self) -> bool:
        return self.to_move == TERMINAL


# --- toy-nim ----------------------------------------------------------------------------
class NimState(_ToyState):
    def __init__(self, game: Game, pile: int, mover: int = 0, winner: int | None = None):
        super().__init__(game)
        self.pile, self.mover, self.winner = pile, mover, winner
        self.takes = game.takes

    def _snapshot(self):
        return (self.pile, self.mover, self.winner)

    def _restore(self, snap) -> None:
        self.pile, self.mover, self.winner = snap

    @property
    def to_move(self) -> int:
        return TERMINAL if self.winner is not None else self.mover

    def legal_moves(self) -> list:
        if self.winner is not None:
            return []
        return list(range(1, min(self.takes, self.pile) + 1))

    def _apply(self, move) -> None:
        self.pile -= move
        if self.pile == 0:
            self.winner = self.mover
        self.mover = (self.mover + 1) % self.num_players

    def str_to_move(self, text: str):
        if not text.strip().isdigit():
            raise MalformedError(text, "a move is a number of stones")
        return int(text)

    @property
    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result(winners=(self.winner,), num_players=self.num_players, reason="last stone")

    def clone(self) -> NimState:
        copy = type(self)(self.game, self.pile, self.mover, self.winner)
        copy.history = list(self.history)
        return copy

    def position(self) -> str:
        return f"{self.pile} {self.mover} {'-' if self.winner is None else self.winner}"


class NimGame(Game):
    id = "toy-nim"
    title = "Toy Nim"
    max_game_length = 100
    takes = 3

    def new_state(self, seed=None) -> NimState:
        return NimState(self, int(self.options.get("pile", 10)))

    def from_position(self, text: str) -> NimState:
        parts = text.split()
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
            raise MalformedError(text, "position is 'PILE MOVER WINNER'")
        winner = None if parts[2] == "-" else int(parts[2])
        return NimState(self, int(parts[0]), int(parts[1]), winner)


class Nim3Game(NimGame):
    id = "toy-nim3"
    title = "Toy Nim for three"
    min_players = max_players = 3
    takes = 2


# --- toy-gamble -------------------------------------------------------------------------
WIN_CHANCE = {"safe": 0.3, "risky": 0.7}


class GambleState(_ToyState):
    def __init__(self, game: Game, choice: str | None = None, outcome: str | None = None):
        super().__init__(game)
        self.choice, self.outcome = choice, outcome

    def _snapshot(self):
        return (self.choice, self.outcome)

    def _restore(self, snap) -> None:
        self.choice, self.outcome = snap

    @property
    def to_move(self) -> int:
        if self.choice is None:
            return 0
        return CHANCE if self.outcome is None else TERMINAL

    def legal_moves(self) -> list:
        if self.to_move == 0:
            return ["safe", "risky"]
        if self.to_move == CHANCE:
            return ["win", "lose"]
        return []

    def chance_outcomes(self):
        if self.to_move != CHANCE:
            return []
        p = WIN_CHANCE[self.choice]
        return [("win", p), ("lose", 1.0 - p)]

    def _apply(self, move) -> None:
        if self.choice is None:
            self.choice = move
        else:
            self.outcome = move

    def str_to_move(self, text: str):
        if text not in ("safe", "risky", "win", "lose"):
            raise MalformedError(text, "moves are safe, risky (and outcomes win, lose)")
        return text

    @property
    def result(self) -> Result | None:
        if self.outcome is None:
            return None
        return Result(winners=(0 if self.outcome == "win" else 1,), num_players=2)

    def clone(self) -> GambleState:
        copy = GambleState(self.game, self.choice, self.outcome)
        copy.history = list(self.history)
        return copy

    def position(self) -> str:
        return f"{self.choice or '-'} {self.outcome or '-'}"


class GambleGame(Game):
    id = "toy-gamble"
    title = "Toy Gamble"
    has_chance = True
    max_game_length = 2

    def new_state(self, seed=None) -> GambleState:
        return GambleState(self)

    def from_position(self, text: str) -> GambleState:
        parts = text.split()
        if len(parts) != 2:
            raise MalformedError(text, "position is 'CHOICE OUTCOME'")
        return GambleState(self, *(None if p == "-" else p for p in parts))


# --- toy-pick (moves in parts) ---------------------------------------------------------
class PickState(_ToyState):
    def __init__(self, game, pool: tuple[int, ...], totals=(0, 0), mover: int = 0):
        super().__init__(game)
        self.pool, self.totals, self.mover = tuple(pool), tuple(totals), mover

    def _snapshot(self):
        return (self.pool, self.totals, self.mover)

    def _restore(self, snap) -> None:
        self.pool, self.totals, self.mover = snap

    @property
    def to_move(self) -> int:
        return self.mover if self.pool else TERMINAL

    def legal_moves(self) -> list:
        singles = [(a,) for a in self.pool]
        pairs = [(a, b) for i, a in enumerate(self.pool) for b in self.pool[i + 1 :]]
        return singles + pairs if self.pool else []

    @staticmethod
    def move_steps(move) -> tuple:
        return (move[0], "end") if len(move) == 1 else move

    def _apply(self, move) -> None:
        self.pool = tuple(x for x in self.pool if x not in move)
        totals = list(self.totals)
        totals[self.mover] += sum(move)
        self.totals = tuple(totals)
        self.mover = 1 - self.mover

    def move_to_str(self, move) -> str:
        return "+".join(map(str, move))

    def str_to_move(self, text: str):
        parts = text.split("+")
        if not 1 <= len(parts) <= 2 or not all(p.isdigit() for p in parts):
            raise MalformedError(text, "a move is ITEM or ITEM+ITEM")
        return tuple(sorted(map(int, parts)))

    def scores(self):
        return tuple(float(t) for t in self.totals)

    @property
    def result(self) -> Result | None:
        if self.pool:
            return None
        a, b = self.totals
        winners = () if a == b else ((0,) if a > b else (1,))
        return Result(winners=winners, num_players=2, scores=self.scores())

    def clone(self) -> PickState:
        copy = PickState(self.game, self.pool, self.totals, self.mover)
        copy.history = list(self.history)
        return copy

    def position(self) -> str:
        pool = ",".join(map(str, self.pool)) or "-"
        return f"{pool} {self.totals[0]} {self.totals[1]} {self.mover}"


class PickGame(Game):
    id = "toy-pick"
    title = "Toy Pick"
    max_game_length = 100

    def new_state(self, seed=None) -> PickState:
        return PickState(self, tuple(range(int(self.options.get("items", 12)))))

    def from_position(self, text: str) -> PickState:
        try:
            pool, a, b, mover = text.split()
            items = () if pool == "-" else tuple(int(x) for x in pool.split(","))
            return PickState(self, items, (int(a), int(b)), int(mover))
        except ValueError:
            raise MalformedError(text, "position is 'POOL A B MOVER'") from None


# --- toy-coins (solo) -------------------------------------------------------------------
class CoinsState(_ToyState):
    """Phases: chance shows ``coin`` (1..3), then the player takes or skips it. Taking makes
    the next round's coin unavailable (the player may only skip it)."""

    def __init__(self, game, rounds_left: int, score: int = 0, coin: int = 0, tired: bool = False):
        super().__init__(game)
        self.rounds_left, self.score, self.coin, self.tired = rounds_left, score, coin, tired

    def _snapshot(self):
        return (self.rounds_left, self.score, self.coin, self.tired)

    def _restore(self, snap) -> None:
        self.rounds_left, self.score, self.coin, self.tired = snap

    @property
    def to_move(self) -> int:
        if self.rounds_left == 0:
            return TERMINAL
        return CHANCE if self.coin == 0 else 0

    def chance_outcomes(self):
        if self.to_move != CHANCE:
            return []
        return [(f"coin{v}", p) for v, p in ((1, 0.5), (2, 0.3), (3, 0.2))]

    def legal_moves(self) -> list:
        if self.to_move == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        if self.to_move == 0:
            return ["skip"] if self.tired else ["take", "skip"]
        return []

    def _apply(self, move) -> None:
        if move.startswith("coin"):
            self.coin = int(move[4:])
            return
        self.tired = move == "take"
        if move == "take":
            self.score += self.coin
        self.coin = 0
        self.rounds_left -= 1

    def str_to_move(self, text: str):
        if text not in ("take", "skip", "coin1", "coin2", "coin3"):
            raise MalformedError(text, "moves are take, skip (outcomes coin1..coin3)")
        return text

    def scores(self):
        return (float(self.score),)

    @property
    def result(self) -> Result | None:
        if self.rounds_left:
            return None
        return Result(winners=(0,), num_players=1, scores=(float(self.score),))

    def clone(self) -> CoinsState:
        copy = CoinsState(self.game, self.rounds_left, self.score, self.coin, self.tired)
        copy.history = list(self.history)
        return copy

    def position(self) -> str:
        return f"{self.rounds_left} {self.score} {self.coin} {int(self.tired)}"


class CoinsGame(Game):
    id = "toy-coins"
    title = "Toy Coins"
    min_players = max_players = 1
    has_chance = True
    max_game_length = 40

    def new_state(self, seed=None) -> CoinsState:
        return CoinsState(self, int(self.options.get("rounds", 6)))

    def from_position(self, text: str) -> CoinsState:
        parts = text.split()
        if len(parts) != 4 or not all(p.isdigit() for p in parts):
            raise MalformedError(text, "position is 'ROUNDS SCORE COIN TIRED'")
        r, s, c, t = map(int, parts)
        return CoinsState(self, r, s, c, bool(t))


for _cls in (NimGame, Nim3Game, GambleGame, PickGame, CoinsGame):
    register(_cls)
