"""The Kuniumi engine: one position, its legal moves, and the end of the game.

Player 0 is the first player (who places the set-up and moves first), player 1 the second
player (who chooses a side). The rules that are hot in search (groups, closures, God lines,
set-up bans) are the functions of :mod:`.flat`, shared with the compiled kernel; this module
adds phases, validation with reasons, notation, results and undo.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import TYPE_CHECKING

from ludoteca.core.bit_tables import set_bits_table
from ludoteca.core.errors import IllegalMoveError, IllegalPositionError, MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import TERMINAL, Result, State, joined_names

from . import flat, notation
from .flat import (
    CHOOSE,
    CHOOSE_PHASE,
    DRAW,
    EARTH_GOD,
    FULL,
    LAND,
    MOVE,
    NO_SIDE,
    NOT_OVER,
    NUM_ACTIONS,
    OVER_BASE,
    PLAY,
    SEA,
    SEA_GOD,
    SETUP,
    SETUP_PIECES,
    SQUARES,
    fill,
)
from .notation import PIECE_LETTERS, PIECE_NAMES, SIDE_NAMES, square_name

if TYPE_CHECKING:
    from .game import Kuniumi

_PLACED = (Text("the Earth God"), Text("the Sea God"), Text("a land token"), Text("a sea token"))
"""Each set-up piece as the log names it, by :data:`PIECE_NAMES`' order."""

SETUP_ORDER = "ESllss"
"""The fixed set-up order (rules, **Decision**)."""


_LOW, _MID, _HIGH = (set_bits_table(12, shift) for shift in (0, 12, 24))


def squares_of(board: int) -> tuple[int, ...]:
    """The square indices of a board, lowest first (three table look-ups of 12 bits)."""
    return _LOW[board & 0xFFF] + _MID[(board >> 12) & 0xFFF] + _HIGH[board >> 24]


_after_god_move = flat.after_god_move
"""The engine's hottest step (:func:`.flat.after_god_move`): the plain function, or its
compiled twin once this process has compiled the kernel (see :func:`use_compiled`)."""
_setup_targets = flat.setup_targets
"""The set-up's legal squares (:func:`.flat.setup_targets`), plain or compiled likewise."""


_outcome = flat.outcome
"""Who a board's closed groups make the winner (:func:`.flat.outcome`: once a game, when
the side is chosen, and after an undo), plain or compiled likewise."""
_god_targets = flat.god_targets
""":func:`.flat.god_targets`, plain or compiled likewise."""
_closed_pieces = flat.closed_pieces
""":func:`.flat.closed_pieces` (the closed groups a result names), likewise."""
_largest_group = flat.largest_group
""":func:`.flat.largest_group`, likewise."""

COMPILED = (
    "after_god_move",
    "setup_targets",
    "outcome",
    "god_targets",
    "closed_pieces",
    "largest_group",
)
"""The functions of :mod:`.flat` the states call through a module name of their own (the
name with a leading ``_``): the plain ones, or the kernel's once compiled."""


def use_compiled(kernel) -> None:
    """Step states with the compiled kernel's functions of :data:`COMPILED` (a God move's
    :func:`.flat.after_god_move`, the set-up's targets, the end of a game): the same code,
    compiled by numba (:mod:`.jit` calls this once it has compiled it), so a process that
    searches or benchmarks steps states at a fraction of the cost. Numba is slow to
    import, so a process that never asks for the kernel keeps the plain functions
    (:mod:`.flat` itself, passed here, puts them back)."""
    for name in COMPILED:
        globals()["_" + name] = getattr(kernel, name)


SETUP_PROMPTS = (
    Text("Click a square to place the Earth God."),
    Text("Click a square to place the Sea God."),
    Text("Click a square to place a land token."),
    Text("Click a square to place a sea token."),
)
"""What to click during the set-up, by the kind of piece placed next (as PIECE_NAMES)."""
SETUP_PROMPTS_TOUCH = (
    Text("Tap a square to place the Earth God."),
    Text("Tap a square to place the Sea God."),
    Text("Tap a square to place a land token."),
    Text("Tap a square to place a sea token."),
)
"""The same for a finger on a touch screen."""


class KuniumiState(State[int]):
    """A Kuniumi position, changed in place by :meth:`play`; :meth:`undo` takes moves back.

    ``land`` and ``sea`` are 36-bit boards of each side's pieces, its God included;
    ``earth_god`` and ``sea_god`` are single-bit boards (0 before they are placed);
    ``first`` is the first player's side once chosen (else ``NO_SIDE``) and ``side`` the side
    to move in play.
    """

    __slots__ = (
        "game",
        "land",
        "sea",
        "earth_god",
        "sea_god",
        "phase",
        "first",
        "side",
        "_result",
        "_targets",
        "_kind",
        "_history",
    )

    def __init__(
        self,
        game: Kuniumi,
        land: int = 0,
        sea: int = 0,
        earth_god: int = 0,
        sea_god: int = 0,
        phase: int = SETUP,
        first: int = NO_SIDE,
        side: int = NO_SIDE,
    ) -> None:
        self.game = game
        self.land = land
        self.sea = sea
        self.earth_god = earth_god
        self.sea_god = sea_god
        self.phase = phase
        self.first = first
        self.side = side
        # the actions played, last one last: each is undone from the position after it, so
        # a move stores one int (the summary and the log read the last one)
        self._history: list[int] = []
        self._settle()

    # --- whose turn ---------------------------------------------------------------------------
    def player_of(self, side: int) -> int:
        """The player (0 first, 1 second) playing ``side`` once the sides are chosen."""
        return 0 if side == self.first else 1

    @property
    def to_move(self) -> int:
        if self._result is not None:
            return TERMINAL
        phase = self.phase
        if phase == PLAY:
            return 0 if self.side == self.first else 1  # player_of(side)
        return 0 if phase == SETUP else 1

    def side_name(self, player: int) -> str:
        if self.first == NO_SIDE:
            return (Text("first"), Text("second"))[player]
        return SIDE_NAMES[self.first if player == 0 else 1 - self.first]

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def next_setup_kind(self) -> int | None:
        """The kind of the next set-up piece (0 E, 1 S, 2 l, 3 s), or ``None`` after the set-up."""
        return self._kind if self.phase == SETUP else None

    def _setup_kind(self) -> int:
        """The next set-up piece's kind, in the set-up phase (where there always is one)."""
        assert self.phase == SETUP, "asked for the next set-up piece after the set-up"
        return self._kind

    # --- the end of the game --------------------------------------------------------------------
    def _settle(self, placed: int = 0) -> None:
        """Work out the legal targets and whether the game is over, after any change.

        ``placed``: the square a God move just filled, when the board before it held no
        closed group; the end is then checked around that square only (same answer).
        """
        self._result = None
        self._targets = 0
        self._kind = -1
        if self.phase == SETUP:
            # kept: the set-up's listing, check and observation each ask for it every step
            kind = self._kind = flat.setup_kind(flat.popcount(self.land | self.sea))
            self._targets = _setup_targets(self.land, self.sea, kind)
            if not self._targets:  # impossible on this board, but the rule is clear
                self._result = Result(
                    (1,), 2, reason=Text("the first player has no legal placement")
                )
            return
        if self.phase == CHOOSE_PHASE:
            return
        if placed:
            won = flat.outcome_after(self.land, self.sea, placed)
        else:
            won = _outcome(self.land, self.sea)
        if won != NOT_OVER:
            self._result = self._closure_result(won)
            return
        self._targets = _god_targets(self._god(), self._mine(), self.land | self.sea)
        if not self._targets:
            loser = self.player_of(self.side)
            self._result = Result(
                (1 - loser,),
                2,
                reason=Text("{side} has no legal move", {"side": SIDE_NAMES[self.side]}),
            )

    def _closure_result(self, won: int) -> Result:
        empty = FULL & ~(self.land | self.sea)
        sizes = [
            _largest_group(_closed_pieces(self.land, empty)),
            _largest_group(_closed_pieces(self.sea, empty)),
        ]
        if won == DRAW:
            return Result(
                (),
                2,
                reason=Text(
                    "both sides closed groups of {size}: equal sizes draw", {"size": sizes[LAND]}
                ),
            )
        name = SIDE_NAMES[won]
        if sizes[1 - won]:
            reason = Text(
                "both sides closed groups; {side}'s largest ({size}) beats {other}'s "
                "({other_size})",
                {
                    "side": name,
                    "size": sizes[won],
                    "other": SIDE_NAMES[1 - won],
                    "other_size": sizes[1 - won],
                },
            )
        else:
            reason = Text("{side} closed a group of {size}", {"side": name, "size": sizes[won]})
        return Result((self.player_of(won),), 2, reason=reason)

    def _god(self) -> int:
        return self.earth_god if self.side == LAND else self.sea_god

    def _mine(self) -> int:
        return self.land if self.side == LAND else self.sea

    # --- moves ---------------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        base, squares = self.legal_squares()
        return [base + sq for sq in squares_of(squares)]

    def legal_squares(self) -> tuple[int, int]:
        """The legal moves as ``(base, squares)``: each is ``base`` plus a square of the
        board ``squares`` (a set-up piece's kind's, or a God move's from its square, to
        each free square in its group's lines; the choice's two, ``CHOOSE`` plus ``LAND``
        and ``SEA``). No square once the game is over. The research adapters' mask is set
        from it without a list."""
        if self._result is not None:
            return 0, 0
        phase = self.phase
        if phase == PLAY:  # the God's square, then each free square in its lines
            god = self.earth_god if self.side == LAND else self.sea_god
            return MOVE + SQUARES * (god.bit_length() - 1), self._targets
        if phase == SETUP:
            return self._kind * SQUARES, self._targets
        return CHOOSE, 1 << LAND | 1 << SEA

    def move_to_str(self, move: int | str) -> str:
        """Binding notation of a move; notation text is accepted too and comes back canonical."""
        if isinstance(move, str):
            return notation.move_to_str(notation.str_to_move(move))
        return notation.move_to_str(self._action(move))

    def str_to_move(self, text: str) -> int:
        return notation.str_to_move(text)

    # --- what the board offers (see the protocol) --------------------------------------------
    def move_cells(self, move: int | str) -> tuple[str, ...]:
        what, a, b = notation.decode(self._action(self.coerce_move(move)))
        if what == "setup":
            return (square_name(b),)
        return () if what == "choose" else (square_name(a), square_name(b))

    def move_label(self, move: int | str) -> str:
        what, a, b = notation.decode(self._action(self.coerce_move(move)))
        if what == "setup":
            return Text("{piece} on {square}", {"piece": PIECE_NAMES[a], "square": square_name(b)})
        if what == "choose":
            return Text("Play {side}", {"side": SIDE_NAMES[a]})
        return Text(
            "God from {origin} to {dest}", {"origin": square_name(a), "dest": square_name(b)}
        )

    def ui_hints(self) -> dict:
        """What to click now (``prompt``) or tap on a touch screen (``prompt_touch``), for
        the game's ``ui_hints``."""
        if self._result is not None:
            return {"prompt": "", "first": "any"}
        if self.phase == SETUP:
            kind = self._setup_kind()
            return {
                "prompt": SETUP_PROMPTS[kind],
                "prompt_touch": SETUP_PROMPTS_TOUCH[kind],
                "first": "any",
            }
        if self.phase == CHOOSE_PHASE:
            return {"prompt": Text("Choose the side you will play:"), "first": "any"}
        return {
            "prompt": Text("Click your God, then a highlighted square."),
            "prompt_touch": Text("Tap your God, then a highlighted square."),
            "first": "origin",
        }

    @staticmethod
    def _action(move: object) -> int:
        if isinstance(move, bool) or not isinstance(move, Integral):
            raise MalformedError(move, "a Kuniumi move is notation text or an action number")
        if not 0 <= int(move) < NUM_ACTIONS:
            raise MalformedError(
                move, "action numbers run from 0 to {NUM_ACTIONS}", NUM_ACTIONS=NUM_ACTIONS - 1
            )
        return int(move)

    def play(self, move: int | str) -> None:
        if type(move) is int and 0 <= move < NUM_ACTIONS and self._result is None:
            # the common case first: a legal action number (_fast_legal, written out)
            if self.phase == PLAY:
                if move >= MOVE:
                    origin, dest = divmod(move - MOVE, SQUARES)
                    god = self.earth_god if self.side == LAND else self.sea_god
                    if 1 << origin == god and self._targets >> dest & 1:
                        self._history.append(move)
                        self._move_god(1 << dest)
                        return
            elif self._fast_legal(move):
                self._apply(move)
                return
        if isinstance(move, str):
            text = move
            action = notation.str_to_move(move)
        else:
            action = self._action(move)
            text = None  # written out only if the move is refused
        self._check(action, text)
        self._apply(action)

    def _check(self, action: int, text: str | None) -> None:
        """Raise :class:`IllegalMoveError` naming the rule, unless ``action`` is legal here."""
        if text is None:
            if self._result is None and self._fast_legal(action):
                return
            text = notation.move_to_str(action)
        if self._result is not None:
            raise IllegalMoveError(text, "the game is over")
        if self.phase == SETUP:
            if action >= CHOOSE:
                raise IllegalMoveError(
                    text, "the first player is placing the set-up: place a piece, like E@c3"
                )
            kind, square = divmod(action, SQUARES)
            wanted = self._setup_kind()
            if kind != wanted:
                raise IllegalMoveError(
                    text,
                    "the next set-up piece is the {PIECE_NAMES} ({PIECE_LETTERS}): the order is "
                    "E, S, l, l, s, s",
                    PIECE_NAMES=PIECE_NAMES[wanted],
                    PIECE_LETTERS=PIECE_LETTERS[wanted],
                )
            bit = 1 << square
            if (self.land | self.sea) & bit:
                raise IllegalMoveError(
                    text, "{square_name} is occupied", square_name=square_name(square)
                )
            if not self._targets & bit:
                raise IllegalMoveError(
                    text, "it would leave a closed group, which the set-up may not do"
                )
            return
        if self.phase == CHOOSE_PHASE:
            if not CHOOSE <= action < MOVE:
                raise IllegalMoveError(
                    text, "the second player now chooses a side: 'choose land' or 'choose sea'"
                )
            return
        if action < MOVE:
            raise IllegalMoveError(
                text, "the set-up and the choice are over: move your God, like c3-c6"
            )
        origin, dest = divmod(action - MOVE, SQUARES)
        name = SIDE_NAMES[self.side]
        god_square = flat.square_of(self._god())
        if origin != god_square:
            raise IllegalMoveError(
                text,
                "{name} is to move and the {name} God is on {square_name}, not on {square_name2}",
                name=name,
                square_name=square_name(god_square),
                square_name2=square_name(origin),
            )
        if dest == origin:
            raise IllegalMoveError(text, "the God must move; it cannot stay")
        if (self.land | self.sea) & (1 << dest):
            raise IllegalMoveError(text, "{square_name} is occupied", square_name=square_name(dest))
        if not self._targets & (1 << dest):
            raise IllegalMoveError(
                text,
                "{square_name} is not in a row or column of the {name} God's group",
                square_name=square_name(dest),
                name=name,
            )

    def _fast_legal(self, action: int) -> bool:
        """The common case quickly: is ``action`` one of the legal moves?"""
        if self.phase == CHOOSE_PHASE:
            return CHOOSE <= action < MOVE
        if self.phase == SETUP:
            kind, square = divmod(action, SQUARES)
            return kind == self._kind and bool(self._targets >> square & 1)
        if action < MOVE:
            return False
        origin, dest = divmod(action - MOVE, SQUARES)
        return (1 << origin) == self._god() and bool(self._targets >> dest & 1)

    def _apply(self, action: int) -> None:
        """Play a legal action (unchecked: callers check first)."""
        self._history.append(action)
        if action < CHOOSE:
            kind, square = divmod(action, SQUARES)
            bit = 1 << square
            if flat.kind_side(kind) == LAND:
                self.land |= bit
            else:
                self.sea |= bit
            if kind == EARTH_GOD:
                self.earth_god = bit
            elif kind == SEA_GOD:
                self.sea_god = bit
            if flat.popcount(self.land | self.sea) == SETUP_PIECES:
                self.phase = CHOOSE_PHASE
            self._settle()
        elif action < MOVE:
            self.first = 1 - (action - CHOOSE)
            self.side = self.first
            self.phase = PLAY
            self._settle()
        else:
            self._move_god(1 << (action - MOVE) % SQUARES)

    def _move_god(self, bit: int) -> None:
        """The God of the side to move goes to square ``bit``, leaving a token behind (legal:
        callers check first); then :meth:`_settle` around ``bit``, written out for the
        hottest path of every game."""
        if self.side == LAND:
            land = self.land = self.land | bit
            sea = self.sea
            self.earth_god = bit
            self.side = SEA
            god, mine = self.sea_god, sea
        else:
            sea = self.sea = self.sea | bit
            land = self.land
            self.sea_god = bit
            self.side = LAND
            god, mine = self.earth_god, land
        targets = _after_god_move(land, sea, bit, god, mine)
        if targets < 0:
            self._targets = 0
            self._result = self._closure_result(targets - OVER_BASE)
            return
        self._targets = targets
        if not targets:
            self._settle()  # no move for the side to move: _settle words the loss

    def _summary(self) -> str | None:
        """The last move in words, worked out when asked (playouts never ask)."""
        action = self._history[-1] if self._history else None
        if action is None:
            return None
        if action < CHOOSE:
            kind, square = divmod(action, SQUARES)
            summary = Text(
                "{piece} placed on {square}",
                {"piece": PIECE_NAMES[kind], "square": square_name(square)},
            )
        elif action < MOVE:
            chosen = action - CHOOSE
            summary = Text(
                "the second player chose {chosen}; the first player plays {first} and moves first",
                {"chosen": SIDE_NAMES[chosen], "first": SIDE_NAMES[1 - chosen]},
            )
        else:
            origin, dest = divmod(action - MOVE, SQUARES)
            moved = {"origin": square_name(origin), "dest": square_name(dest)}
            if self.side != LAND:  # the side that moved is the one not to move now
                summary = Text("Earth God {origin}-{dest}, land token left on {origin}", moved)
            else:
                summary = Text("Sea God {origin}-{dest}, sea token left on {origin}", moved)
        if self._result is not None and self.phase == PLAY:
            summary = Text(
                "{summary}; {reason}", {"summary": summary, "reason": self._result.reason}
            )
        return summary

    def describe_last_move(self, names: Sequence[str]) -> str | None:
        """The last move for the game's log, by the player's name: what was placed where
        in the set-up, who chose which side, where a God went and the token it left, and
        at the end which squares make the closed group that decided the game."""
        action = self._history[-1] if self._history else None
        if action is None:
            return None
        if action < CHOOSE:  # the first player places the whole set-up
            kind, square = divmod(action, SQUARES)
            return Text(
                "{who} placed {piece} on {square}",
                {"who": names[0], "piece": _PLACED[kind], "square": square_name(square)},
            )
        if action < MOVE:
            chosen = action - CHOOSE
            return Text(
                "{who} chose to play {chosen}; {other} plays {first} and moves first",
                {
                    "who": names[1],
                    "chosen": SIDE_NAMES[chosen],
                    "other": names[0],
                    "first": SIDE_NAMES[1 - chosen],
                },
            )
        origin, dest = divmod(action - MOVE, SQUARES)
        moved = LAND if self.side != LAND else SEA  # the side that moved is not to move now
        fields = {
            "who": names[self.player_of(moved)],
            "origin": square_name(origin),
            "dest": square_name(dest),
        }
        if moved == LAND:
            told = Text(
                "{who} moved the Earth God from {origin} to {dest} and left a land token on "
                "{origin}",
                fields,
            )
        else:
            told = Text(
                "{who} moved the Sea God from {origin} to {dest} and left a sea token on {origin}",
                fields,
            )
        if self._result is None:
            return told
        closed = self.closed_group()
        if closed:
            return Text(
                "{told}; the closed group {squares} ends the game ({reason})",
                {"told": told, "squares": joined_names(closed), "reason": self._result.reason},
            )
        return Text("{told}: {reason}", {"told": told, "reason": self._result.reason})

    def closed_group(self) -> list[str]:
        """Once a closed group has ended the game, the squares of the winner's largest one
        (of either side in a draw), lowest first: what the log names and the board outlines.
        Empty while the game goes on."""
        result = self._result
        if result is None or self.phase != PLAY:
            return []
        empty = FULL & ~(self.land | self.sea)
        sides = [self.first if p == 0 else 1 - self.first for p in result.winners] or [LAND, SEA]
        best = 0
        for side in sides:
            closed = flat.closed_pieces(self.land if side == LAND else self.sea, empty)
            while closed:
                group = fill(closed & -closed, closed)
                if flat.popcount(group) > flat.popcount(best):
                    best = group
                closed &= ~group
        return [square_name(i) for i in range(SQUARES) if best >> i & 1]

    def undo(self) -> None:
        """Take back the last move played on this state (or on the state it was cloned from)."""
        if not self._history:
            raise IllegalMoveError("undo", "no move to take back")
        action = self._history.pop()
        if action < CHOOSE:  # a set-up piece comes off; the set-up is under way again
            kind, square = divmod(action, SQUARES)
            if flat.kind_side(kind) == LAND:
                self.land &= ~(1 << square)
            else:
                self.sea &= ~(1 << square)
            if kind == EARTH_GOD:
                self.earth_god = 0
            elif kind == SEA_GOD:
                self.sea_god = 0
            self.phase = SETUP
        elif action < MOVE:  # the choice is taken back
            self.phase = CHOOSE_PHASE
            self.first = self.side = NO_SIDE
        else:  # the God that moved (the side not to move now) goes back to its square
            origin, dest = divmod(action - MOVE, SQUARES)
            moved = 1 - self.side
            if moved == LAND:
                self.land &= ~(1 << dest)
                self.earth_god = 1 << origin
            else:
                self.sea &= ~(1 << dest)
                self.sea_god = 1 << origin
            self.side = moved
        self._settle()

    def clone(self) -> KuniumiState:
        other = KuniumiState.__new__(KuniumiState)
        other.game = self.game
        other.land = self.land
        other.sea = self.sea
        other.earth_god = self.earth_god
        other.sea_god = self.sea_god
        other.phase = self.phase
        other.first = self.first
        other.side = self.side
        other._result = self._result
        other._targets = self._targets
        other._kind = self._kind
        other._history = self._history.copy()
        return other

    def last_move_summary(self) -> str | None:
        return self._summary()

    # --- position text ---------------------------------------------------------------------------
    def position(self) -> str:
        rows = notation.board_to_rows(self.land, self.sea, self.earth_god, self.sea_god)
        phase = notation.PHASE_NAMES[self.phase]
        if self.phase != PLAY:
            return f"{rows} {phase}"
        return f"{rows} play {SIDE_NAMES[self.side]} {SIDE_NAMES[self.first]}"


def parse_position(game: Kuniumi, text: str) -> KuniumiState:
    """A state from binding position text.

    ``MalformedError`` when the text does not parse; ``IllegalPositionError`` when it parses
    but no game played by the rules reaches it.
    """
    if not isinstance(text, str):
        raise MalformedError(text, "a Kuniumi position is text")
    fields = text.split()
    if len(fields) < 2:
        raise MalformedError(text, "a position is '<rows> <phase> [<to-move> <first>]'")
    phase_name = fields[1].lower()
    if phase_name not in notation.PHASE_NAMES:
        raise MalformedError(
            text, "phase {fields!r} is not setup, choose or play", fields=fields[1]
        )
    phase = notation.PHASE_NAMES.index(phase_name)
    wanted_fields = 4 if phase == PLAY else 2
    if len(fields) != wanted_fields:
        if phase == PLAY:
            reason = "a play position ends with the side to move and the first player's side"
        else:
            reason = f"a {phase_name} position has just the board and the phase"
        raise MalformedError(text, "{why} ({count} fields given)", why=reason, count=len(fields))
    boards, counts = notation.parse_rows(fields[0], text)
    side = first = NO_SIDE
    if phase == PLAY:
        for field, what in ((fields[2], "side to move"), (fields[3], "first player's side")):
            if field.lower() not in SIDE_NAMES:
                raise MalformedError(
                    text, "the {what} is land or sea, not {field!r}", what=what, field=field
                )
        side = SIDE_NAMES.index(fields[2].lower())
        first = SIDE_NAMES.index(fields[3].lower())

    land = boards["E"] | boards["l"]
    sea = boards["S"] | boards["s"]
    _check_counts(text, phase, counts, side, first)
    over = flat.outcome(land, sea) != NOT_OVER
    if phase != PLAY and over:
        raise IllegalPositionError(
            text, "the board holds a closed group, which is only possible in play (and ends it)"
        )
    if over and counts["l"] + counts["s"] == len(SETUP_ORDER) - 2:
        # The set-up may not leave a closed group, so one closed after the set-up means a
        # move was played: the board holds more than the set-up's four tokens.
        raise IllegalPositionError(
            text, "the board holds a closed group but no move was played after the set-up"
        )
    return KuniumiState(game, land, sea, boards["E"], boards["S"], phase, first, side)


def _check_counts(text: str, phase: int, counts: dict[str, int], side: int, first: int) -> None:
    """Refuse piece counts no game reaches: god counts, the set-up order, the turn order."""
    for god, name in (("E", "Earth God"), ("S", "Sea God")):
        if counts[god] > 1:
            raise IllegalPositionError(
                text, "there is one {name}, the board has {counts}", name=name, counts=counts[god]
            )
    for token, name in (("l", "Land"), ("s", "Sea")):
        if counts[token] > 17:
            raise IllegalPositionError(
                text,
                "a side has 17 {name} tokens, the board has {counts}",
                name=name,
                counts=counts[token],
            )
    placed = "".join(letter * counts[letter] for letter in "ESls")
    if phase == SETUP:
        if placed == SETUP_ORDER:
            raise IllegalPositionError(
                text, "all six set-up pieces are down: the phase is choose, not setup"
            )
        if placed != SETUP_ORDER[: len(placed)]:
            raise IllegalPositionError(
                text,
                "the set-up is placed in the fixed order E, S, l, l, s, s; a board holding "
                "{describe} does not follow it",
                describe=_describe(counts),
            )
        return
    if phase == CHOOSE_PHASE:
        if placed != SETUP_ORDER:
            raise IllegalPositionError(
                text,
                "the choice comes after the whole set-up (E, S, two l, two s); the board holds "
                "{describe}",
                describe=_describe(counts),
            )
        return
    if counts["E"] != 1 or counts["S"] != 1:
        raise IllegalPositionError(text, "in play both Gods are on the board")
    for token, name in (("l", "Land"), ("s", "Sea")):
        if counts[token] < 2:
            raise IllegalPositionError(
                text,
                "the set-up put two {name} tokens down; the board has {counts}",
                name=name,
                counts=counts[token],
            )
    tokens = (counts["l"], counts["s"])
    ahead = tokens[first] - tokens[1 - first]
    if ahead not in (0, 1):
        raise IllegalPositionError(
            text,
            "{SIDE_NAMES} moves first, so it has as many tokens as {SIDE_NAMES2} or one more; the "
            "board has land {tokens}, sea {tokens2}",
            SIDE_NAMES=SIDE_NAMES[first],
            SIDE_NAMES2=SIDE_NAMES[1 - first],
            tokens=tokens[LAND],
            tokens2=tokens[SEA],
        )
    expected = first if ahead == 0 else 1 - first
    if side != expected:
        raise IllegalPositionError(
            text,
            "with land {tokens} and sea {tokens2} tokens it is {SIDE_NAMES} to move, not "
            "{SIDE_NAMES2}",
            tokens=tokens[LAND],
            tokens2=tokens[SEA],
            SIDE_NAMES=SIDE_NAMES[expected],
            SIDE_NAMES2=SIDE_NAMES[side],
        )


def _describe(counts: dict[str, int]) -> str:
    parts = [f"{counts[k]} {k}" for k in "ESls" if counts[k]]
    return ", ".join(parts) or "nothing"
