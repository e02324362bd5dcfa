"""The game protocol every game implements and every consumer is written against.

Shaped after OpenSpiel's Game/State split: a :class:`Game` is the immutable description of
a game with its options; a :class:`State` is one position of it, changed in place by
:meth:`State.play`. Moves are opaque hashable values chosen by each game for speed; their
binding text form goes through :meth:`State.move_to_str` and :meth:`State.str_to_move`, and
:meth:`State.play` accepts either form.

Chance (dice, deals) is explicit: when ``to_move == CHANCE`` the state lists
``chance_outcomes()`` with their probabilities, and whoever runs the game (the table, see
:mod:`ludoteca.core.table`) draws one from its own seeded generator and plays it like a move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .messages import N_, Text
from .playout import CHANCE as CHANCE  # the markers of ``State.to_move``, re-exported
from .playout import TERMINAL as TERMINAL

if TYPE_CHECKING:
    from .ai import SearchKnowledge


Move = Hashable

MoveT = TypeVar("MoveT", bound=Hashable)
"""A game's own move values (ints, tuples, classes): ``State[MoveT]`` names them, so a game's
methods take its moves and the protocol stays one."""

StateT = TypeVar("StateT", bound="State[Any]")
"""A game's own state class: ``Game[StateT]`` draws and describes its states."""


ENDINGS = ("rules", "resignation", "time", "abandoned", "agreement", "aborted")
"""How a game ends: by its rules, by a resignation, on time, abandoned (an untimed game
left unplayed too long, which ends as a time-out does), drawn by the players' agreement, or
aborted by them before everyone had moved (no result at all: nobody wins, nothing is rated)."""

_ENDED_JSON = {
    "resignation": "resignation",
    "time": "timeout",
    "abandoned": "timeout",
    "agreement": "agreement",
    "aborted": "aborted",
}
"""The ``ended`` word records store for each ending (rules endings store none)."""


def joined_names(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: names in a sentence (translatable)."""
    if len(names) <= 1:
        return names[0] if names else ""
    head: str = names[0]
    for name in names[1:-1]:
        head = Text("{a}, {b}", {"a": head, "b": name})
    return Text("{a} and {b}", {"a": head, "b": names[-1]})


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game, however it ended.

    ``winners`` lists the winning players' indices: one for an outright win, several for a
    shared victory, none for a draw. ``scores`` holds each player's score where the game keeps
    one. ``reason`` says in words why the game ended (for people and records). ``ended`` says
    how (see :data:`ENDINGS`); ``resigned``/``timed_out`` name the players who did, and
    ``ranking`` the groups of players best first where the game or the ending ranks them.

    Engines make rules results; :meth:`by_resignation` and :meth:`on_time` make the others
    from the position where they happened. :meth:`to_json` and :meth:`from_json` are the one
    JSON form, used by records, the club's database, the command line and the browser.
    """

    winners: tuple[int, ...]
    num_players: int
    scores: tuple[float, ...] | None = None
    reason: str = ""
    ranking: tuple[tuple[int, ...], ...] | None = field(default=None)
    ended: str = "rules"
    resigned: tuple[int, ...] = ()
    timed_out: tuple[int, ...] = ()

    @property
    def draw(self) -> bool:
        """Ended by the rules with no winner, or drawn by agreement (a game given up by
        everyone is no draw, nor is an aborted one)."""
        return not self.winners and self.ended in ("rules", "agreement")

    def payoffs(self) -> tuple[float, ...]:
        """Each player's share of one point: what search maximises. Sums to 1."""
        n = self.num_players
        if not self.winners:
            return tuple(1.0 / n for _ in range(n))
        share = 1.0 / len(self.winners)
        return tuple(share if p in self.winners else 0.0 for p in range(n))

    # --- in words -------------------------------------------------------------------------
    def headline(self, names: Sequence[str]) -> str:
        """Who won, naming each player as ``names`` gives them (people on a page, sides in
        a terminal): ``Winner: ann (light)``, ``Winners: ...``, ``Draw``, ``Finished`` for
        a solo game, ``No winner`` when everyone gave up."""
        if self.num_players == 1:
            return Text("Finished")
        if self.ended == "aborted":
            return Text("Aborted")
        if self.draw:
            return Text("Draw")
        if not self.winners:
            return Text("No winner")
        winners = joined_names([names[p] for p in self.winners])
        if len(self.winners) == 1:
            return Text("Winner: {names}", {"names": winners})
        return Text("Winners: {names}", {"names": winners})

    def describe(self, names: Sequence[str]) -> str:
        """The whole result in one line, as the command line prints it: who won
        (``light wins``, ``draw``), the scores, and why it ended."""
        text: str
        if self.num_players == 1:
            text = Text("finished")
        elif self.ended == "aborted":
            text = Text("aborted")
        elif self.draw:
            text = Text("draw")
        elif not self.winners:
            text = Text("no winner")
        else:
            winners = joined_names([names[p] for p in self.winners])
            template = N_("{names} wins") if len(self.winners) == 1 else N_("{names} win")
            text = Text(template, {"names": winners})
        if self.scores is not None:
            scores: str = ""
            for p, s in enumerate(self.scores):
                one = Text("{side} {score}", {"side": names[p], "score": f"{s:g}"})
                scores = Text("{a}, {b}", {"a": scores, "b": one}) if scores else one
            text = Text("{result} ({scores})", {"result": text, "scores": scores})
        if self.reason:
            text = Text("{result}: {reason}", {"result": text, "reason": self.reason})
        return text

    # --- endings outside the rules -------------------------------------------------------
    @classmethod
    def by_resignation(cls, state: State, players: Sequence[int]) -> Result:
        """``players`` resigned at ``state``: every other player wins."""
        resigned = tuple(sorted(set(players)))
        winners = tuple(p for p in range(state.num_players) if p not in resigned)
        return cls(
            winners=winners,
            num_players=state.num_players,
            scores=state.scores(),
            reason=Text(
                "{sides} resigned",
                {"sides": joined_names([state.side_name(p) for p in resigned])},
            ),
            ended="resignation",
            resigned=resigned,
        )

    @classmethod
    def on_time(cls, state: State, players: Sequence[int], *, abandoned: bool = False) -> Result:
        """``players`` ran out of time at ``state`` (or, ``abandoned``, left an untimed game
        unplayed for too long: the same result, told so).

        With two players the other one wins. With more (Hexagone for 3 or 4), the rules have
        no way to take a player out in the middle of a game, so the game ends there: the
        players who ran out of time share last place, and the others are ranked as if the game
        had ended normally at that moment, by the game's own standing where it has one
        (:meth:`State.ranking`), else by score (equal scores tie), else all of them share the
        win. The first group of that ranking wins.
        """
        timed_out = tuple(sorted(set(players)))
        others = [p for p in range(state.num_players) if p not in timed_out]
        groups: list[tuple[int, ...]] = []
        standing = state.ranking()
        scores = state.scores()
        if standing is not None:
            for group in standing:
                kept = tuple(p for p in group if p in others)
                if kept:
                    groups.append(kept)
        elif scores is not None:
            for p in sorted(others, key=lambda p: (-scores[p], p)):
                if groups and scores[groups[-1][0]] == scores[p]:
                    groups[-1] = (*groups[-1], p)
                else:
                    groups.append((p,))
        elif others:
            groups.append(tuple(others))
        sides = joined_names([state.side_name(p) for p in timed_out])
        template = N_("{sides} abandoned the game") if abandoned else N_("{sides} ran out of time")
        return cls(
            winners=groups[0] if groups else (),
            num_players=state.num_players,
            scores=scores,
            reason=Text(template, {"sides": sides}),
            ranking=(*groups, timed_out),
            ended="abandoned" if abandoned else "time",
            timed_out=timed_out,
        )

    @classmethod
    def by_agreement(cls, state: State) -> Result:
        """Every player agreed to a draw at ``state`` (offered and accepted during the game)."""
        return cls(
            winners=(),
            num_players=state.num_players,
            scores=state.scores(),
            reason=Text("draw agreed"),
            ended="agreement",
        )

    @classmethod
    def aborted_at(cls, state: State) -> Result:
        """The players agreed to abort the game at ``state``, before each had moved once:
        the game has no result (no winner, no draw) and rates nobody."""
        return cls(
            winners=(),
            num_players=state.num_players,
            scores=None,
            reason=Text("aborted"),
            ended="aborted",
        )

    # --- the one JSON form ---------------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        """The result as records store it, with side names from ``state``'s game.

        Rules endings keep the form records have always had (no ``ended``); the other
        endings say how the game ended and who did it, and a time-out its ranking."""
        out: dict[str, Any] = {"over": True}
        if self.ended != "rules":
            out["ended"] = _ENDED_JSON[self.ended]
        if self.ended in ("resignation", "time", "abandoned"):
            out["resigned" if self.ended == "resignation" else "timed_out"] = list(
                self.resigned if self.ended == "resignation" else self.timed_out
            )
        out["winners"] = list(self.winners)
        out["winner_sides"] = [state.side_name(p) for p in self.winners]
        out["draw"] = self.draw  # a game given up, or aborted, is no draw
        out["scores"] = _whole(self.scores) if self.scores is not None else None
        if self.ended in ("time", "abandoned"):
            out["ranking"] = [list(g) for g in self.ranking or ()]
            if self.ended == "abandoned":
                out["abandoned"] = True
        out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], num_players: int) -> Result:
        """A stored finished result (as :meth:`to_json` writes it) as a typed one. Checking
        it against the moves is the record's job (:func:`ludoteca.record.check_result`)."""
        word = data.get("ended")
        if word is None:
            ended = (
                "resignation"
                if "resigned" in data
                else ("time" if "timed_out" in data else "rules")
            )
        elif word == "timeout":
            ended = "abandoned" if data.get("abandoned") else "time"
        else:
            ended = str(word)
        if ended not in ENDINGS:
            raise ValueError(f"ended is {word!r}: not a way a game ends")
        scores = data.get("scores")
        ranking = data.get("ranking")
        return cls(
            winners=tuple(data.get("winners") or ()),
            num_players=num_players,
            scores=tuple(scores) if scores is not None else None,
            reason=str(data.get("reason", "")),
            ranking=tuple(tuple(g) for g in ranking) if ranking is not None else None,
            ended=ended,
            resigned=tuple(data.get("resigned") or ()),
            timed_out=tuple(data.get("timed_out") or ()),
        )


class State(ABC, Generic[MoveT]):
    """One position of a game. Mutable: :meth:`play` changes it in place.

    Every method that takes input validates it completely before changing anything, so a
    refused move leaves the state exactly as it was.
    """

    game: Game[Any]

    # --- whose turn, and what can happen -------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player index to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` after."""

    @abstractmethod
    def legal_moves(self) -> Sequence[MoveT]:
        """Every legal move (at a chance node: every outcome). Empty once the game is over.

        A sequence: it may be a list, or (where moves run into the thousands, as Comune's
        whole turns) a lazy sequence that counts and indexes moves without listing them, so
        ``len()`` and ``random.choice`` stay cheap. Use ``list()`` to hold a copy.
        """

    @abstractmethod
    def play(self, move: MoveT | str) -> None:
        """Play a move (or chance outcome) given as a move value or in binding notation.

        Raises :class:`~ludoteca.core.errors.MalformedError` for text that does not parse
        and :class:`~ludoteca.core.errors.IllegalMoveError` for a move the rules forbid; in
        both cases the state is unchanged.
        """

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: playing on it never affects this state."""

    @abstractmethod
    def position(self) -> str:
        """The binding position text; ``game.from_position(s.position())`` restores it."""

    @abstractmethod
    def move_to_str(self, move: MoveT) -> str: ...

    @abstractmethod
    def str_to_move(self, text: str) -> MoveT:
        """Parse binding notation; raises ``MalformedError`` if it does not parse.

        Parsing does not check legality; :meth:`play` does.
        """

    # --- optional parts with sensible defaults --------------------------------------------
    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """At a chance node, each outcome with its probability; elsewhere empty."""
        return []

    def undo(self) -> None:
        """Take back the last move, where the game supports it cheaply."""
        raise NotImplementedError(f"{self.game.id} does not support undo")

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def side_name(self, player: int) -> str:
        """The name the rules give a player's side (e.g. ``"land"``), for people and JSON."""
        return f"player{player + 1}"

    def scores(self) -> tuple[float, ...] | None:
        """Current scores where the game keeps score (also during play), else ``None``."""
        return None

    def ranking(self) -> Sequence[Sequence[int]] | None:
        """The players in groups, best first, as the game would rank them if it ended now
        (Hexagone: most captured pieces, then most of one colour); ``None`` where the game
        has no standing but its scores. Used to rank a game ended on time."""
        return None

    def last_move_summary(self) -> str | None:
        """A line for people about what the last move did (points scored, captures), if any."""
        return None

    def describe_last_move(self, names: Sequence[str]) -> str | None:
        """The last move in words for the game's log, as a person tells it: who did what
        and what it caused (``Ana swapped c3 and d4 and captured 4 red and 3 blue``),
        naming player ``p`` as ``names[p]`` (people's names on a page). A chance outcome is
        told as what the table did for the game (a roll names the player who rolled, a deal
        the hands it filled). A :class:`~ludoteca.core.messages.Text`, so that each reader
        reads it in their language; ``None`` where the game tells nothing (the club then
        shows the notation alone). The engine words it because only the engine knows what a
        move caused: the page holds no rule."""
        return None

    # --- what a board needs to offer a move without knowing notation ----------------------
    def move_cells(self, move: MoveT) -> tuple[str, ...]:
        """The board cells a move names, in the order a player clicks them.

        Each is the ``data-cell`` value of an element of :meth:`Game.render_svg` for this
        state (the one contract between engine and page: every legal move's cells exist in
        the SVG, checked for every registered game). A move that names no cell (pass, stop,
        choose a side) gives ``()`` and is offered as a button with :meth:`move_label`.
        """
        return ()

    def move_outline(self, moves: Sequence[MoveT], origin: bool) -> tuple[list[MoveT], set[str]]:
        """What a page needs to offer many legal ``moves`` of this state without listing them:
        those that name no cell (offered as buttons), and the cells a first click may take:
        every cell of a move, or with ``origin`` each move's first cell (where a piece moves
        from). The page asks for a clicked cell's moves afterwards.

        This default looks at every move; a game with thousands of them answers from how it
        made them (Comune, from its placement cells, without listing its pairs)."""
        cells: set[str] = set()
        plain = []
        for move in moves:
            named = self.move_cells(move)
            if not named:
                plain.append(move)
            elif origin:
                cells.add(named[0])
            else:
                cells.update(named)
        return plain, cells

    def move_label(self, move: MoveT) -> str:
        """Words a player reads for the move: a button's text for a move without cells, a
        tooltip otherwise. The default is the game's :attr:`Game.move_labels` entry for
        the move's notation, else the notation itself."""
        text = self.move_to_str(move)
        return self.game.move_labels.get(text, text)

    def move_info(self, move: MoveT) -> dict[str, Any]:
        """Facts about a move that a game's own page module reads (Comino: the tile and its
        orientation), as plain JSON data; ``{}`` for games whose page needs only cells and
        labels."""
        return {}

    def coerce_move(self, move: MoveT | str) -> MoveT:
        """Turn notation into a move value; pass move values through unchanged."""
        return self.str_to_move(move) if isinstance(move, str) else move

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"


class Game(ABC, Generic[StateT]):
    """The description of a game with its options; makes states.

    Subclasses set the class attributes and implement :meth:`new_state` and
    :meth:`from_position`. Optional hooks give consumers what they need without knowing the
    game: a text board for the terminal, an SVG for the web club, a compiled playout kernel
    for benchmarks and search.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    designer: ClassVar[str] = ""
    """Who designed the game, as the club's help and about pages credit them."""
    tagline: ClassVar[str] = ""
    """One line saying what the game is, for the club's lobby cards."""
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    has_chance: ClassVar[bool] = False
    can_end_drawn: ClassVar[bool] = False
    """Whether the rules can end a game with no winner: only such a game may be drawn by the
    players' agreement (the club offers a draw in no other)."""
    max_game_length: ClassVar[int]
    """An upper bound on the number of moves (chance outcomes included) of any game."""
    move_help: ClassVar[str] = ""
    """One or two lines telling a person how to type a move."""
    option_names: ClassVar[frozenset[str] | None] = None
    """The options a game takes, where it declares them: any other is refused by
    :func:`ludoteca.core.registry.get` with the list of these. ``None`` leaves the judging
    to the game's own constructor."""
    move_labels: ClassVar[dict[str, str]] = {}
    """Words a board shows for moves that name no cell (Comune's ``pass`` is "Pass"), so the
    page offers them as buttons without knowing the notation; a move not listed shows its
    notation."""

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = dict(options)

    @property
    def num_players(self) -> int:
        return int(self.options.get("players", self.min_players))

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """The start of a new game; ``seed`` fixes any random set-up the game needs."""

    @abstractmethod
    def from_position(self, text: str) -> State:
        """Parse binding position text; ``MalformedError`` / ``IllegalPositionError`` if bad."""

    # --- optional hooks ---------------------------------------------------------------------
    def render_text(self, state: StateT, *, color: bool = False) -> str:
        """The board drawn for a terminal; ``color`` adds ANSI colour via rich markup."""
        return state.position()

    def render_svg(
        self, state: StateT, *, highlight: Sequence[Any] = (), translate: Callable[[str], str] = str
    ) -> str:
        """The board as SVG. Words in it for people (a status line, a piece's name) pass
        through ``translate`` (the web club's reader's language; English by default)."""
        raise NotImplementedError(f"{self.id} has no SVG rendering yet")

    def ui_hints(self, state: StateT) -> dict[str, Any]:
        """What the page needs to present ``state`` beside its structured moves, as data the
        game provides: ``prompt`` (a sentence telling the player what to click now, or ``""``)
        and ``first`` (``"origin"`` when a move is made by clicking its first cell and then
        one of the rest, as a piece moves, else ``"any"``). Games add keys their own page
        module reads; the browser holds no rule."""
        return {"prompt": "", "first": "any"}

    def search_knowledge(self) -> SearchKnowledge:
        """What the bots may know of this game beyond the protocol (evaluation, playout
        policy, turn parts, cutoffs, level settings): see :mod:`ludoteca.core.ai`. Games
        declare theirs in their own ``ai.py``; the default is the generic search."""
        from .ai import GENERIC

        return GENERIC

    def action_space(self) -> Any:
        """The game's fixed integer action space for the research adapters (PettingZoo,
        OpenSpiel; the shape is :class:`ludoteca.env.actions.GameSpace`), or ``None``: the
        game offers no adapter. A hook like every other, so that a game loaded as a plug-in
        offers the adapters as the built-in ones do."""
        return None

    def observation(self) -> Any:
        """The game's observation tensor for the research adapters: an object with
        ``layout(game)`` and ``fill(views, state, player, prefix)`` or, faster,
        ``fill_flat(flat, state, player, prefix)`` (see :mod:`ludoteca.env.observation`),
        or ``None`` where the game has none."""
        return None

    def playout_kernel(self):  # -> Callable[[int, float], tuple[int, int]] | None
        """A fast random-playout function ``f(seed, seconds) -> (games, moves)`` or ``None``.

        Benchmarks and search use it when present. It plays the game's documented random
        policy (uniform over legal moves, unless the game's speed limit defines another, as
        Comune's "as many pieces as allowed" does) and must agree with the engine on legal
        moves and results (differential tests).
        """
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.options}>"


def _whole(scores: tuple[float, ...]) -> list[float]:
    """Scores as JSON keeps them: a whole number as an integer (``12``, not ``12.0``), so
    records and the database show the points a game counts in."""
    return [int(s) if isinstance(s, float) and s.is_integer() else s for s in scores]
