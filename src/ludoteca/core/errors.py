"""The one error family every part of ludoteca raises for bad input.

Like python-chess and shakmaty we tell a *malformed* input (it does not parse) apart from an
*illegal* one (it parses, but the rules forbid it). Callers that only care that the input was
refused catch :class:`GameError`; callers that want to tell the user which kind of mistake
they made catch the subclasses. Every message names the offending input and the rule it
breaks, and an engine never changes its state before raising one of these.
"""

from __future__ import annotations

from typing import Any

from ludoteca.core.messages import Text


class GameError(ValueError):
    """Base of every refusal of user input (moves, positions, records, options).

    ``input`` is the text (or value) that was refused, ``reason`` the rule it breaks, in
    English. ``reason`` may be a template with ``{name}`` fields filled from ``fields``;
    ``text`` keeps the two apart so the web club can show the reason translated.
    """

    kind = "error"

    def __init__(self, input: object, reason: str | Text, **fields: Any) -> None:  # noqa: A002 - name is the API
        self.input = input
        self.text = Text.of(reason, fields)
        self.reason: str = self.text
        super().__init__(f"{self.kind} {input!r}: {self.reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole, fields included: a refusal raised in a bot worker process comes
        back to the server as itself. The default rebuilds an exception as ``type(*args)``,
        which this constructor does not take: unpickling failed, and the worker pool, taking
        that for a dead worker, refused every later computer turn."""
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(cls: type[GameError], args: tuple[Any, ...], state: dict[str, Any]) -> GameError:
    """A :class:`GameError` unpickled (:meth:`GameError.__reduce__`)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class MalformedError(GameError):
    """The input does not parse: bad notation, bad position text, bad JSON, bad option."""

    kind = "malformed input"


class IllegalMoveError(GameError):
    """The move parses, but the rules do not allow it in this position."""

    kind = "illegal move"


class IllegalPositionError(GameError):
    """The position parses, but it cannot occur in a game played by the rules."""

    kind = "impossible position"


class RecordError(GameError):
    """A game record is refused: it does not parse, or one of its moves is illegal.

    ``move_number`` is the 1-based index of the first refused move, or ``None`` when the
    record is refused before any move is replayed.
    """

    kind = "invalid record"

    def __init__(  # noqa: A002
        self, input: object, reason: str | Text, move_number: int | None = None, **fields: Any
    ) -> None:
        self.move_number = move_number
        if move_number is not None:
            inner = Text.of(reason, fields)
            reason, fields = (
                Text("move {number}: {reason}", {"number": move_number, "reason": inner}),
                {},
            )
        super().__init__(input, reason, **fields)
