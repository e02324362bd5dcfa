"""``ludoteca replay RECORD``: verify a game record move by move and print the game."""

from __future__ import annotations

from ludoteca.core.errors import GameError, RecordError
from ludoteca.record import load, replay, start_state

from ..common import mover_name, result_line, shorten


def register(sub) -> None:
    p = sub.add_parser(
        "replay",
        help="verify a game record and print it move by move",
        description="Replay RECORD (a JSON game record) through the engine, checking every move "
        "and the stored result, and print the game move by move. A record with an illegal "
        "move is refused with the move number and the reason (exit status 2).",
    )
    p.add_argument("record", metavar="RECORD", help="path of a .json game record")
    p.add_argument("--boards", action="store_true", help="draw the board after every move")
    p.set_defaults(func=run)


def run(args) -> int:
    record = _checked(args.record, lambda: load(args.record))
    first = _checked(args.record, lambda: start_state(record))
    game = first.game
    players = ", ".join(record.players) or "unnamed players"
    print(f"{game.title} ({game.id}, rules {record.rules_version}) - {players}")
    print(f"start: {first.position()}")
    movers: list[str] = []

    def on_move(number: int, text: str, state) -> None:
        print(f"{number:4d}. {movers[-1]:<10} {text}")
        if args.boards:
            print(game.render_text(state))
        movers.append(mover_name(state))

    movers.append(mover_name(first))
    state = _checked(args.record, lambda: replay(record, on_move=on_move))
    print(f"final: {state.position()}")
    if state.is_over:
        print(f"result: {result_line(state)}")
    elif record.result and record.result.get("over"):
        print(f"result: {record.result.get('reason') or 'ended'}")
    else:
        print("the game is not finished")
    print(f"verified: {len(record.moves)} moves")
    return 0


def _checked(path: str, step):
    """Run one step of reading a record; a failure of a library under it (``json`` refusing a
    5000-digit seed with ``ValueError``, say) is a :class:`RecordError` naming the file."""
    try:
        return step()
    except GameError:
        raise
    except (ValueError, OverflowError, RecursionError, TypeError, KeyError, IndexError) as exc:
        reason = str(exc).split(";")[0] or type(exc).__name__
        raise RecordError(path, f"cannot be replayed ({shorten(reason, 100)})") from None
