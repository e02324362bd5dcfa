"""What the player to move is sent when a turn offers thousands of moves: the whole legal
list against the compact form (the cells to click) and one clicked cell's moves.

    python -m bench.compact_view [--moves 6] [--seed 1] [--lang de] [--repeat 5] [--json]

It plays random moves of Comune from the start until the player to move has many legal
moves, then builds and encodes, in-process, what each form sends (words translated into
``--lang``), and prints the sizes and mean times.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from ludoteca.core.registry import get as get_game
from ludoteca.web.i18n.catalogs import language
from ludoteca.web.round.view import compact_moves, completions, localized, offered_move


def timed(work, repeat: int) -> tuple[float, str]:
    start = time.perf_counter()
    for _ in range(repeat):
        out = work()
    return (time.perf_counter() - start) / repeat, out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--moves", type=int, default=6, help="random moves before measuring (default 6)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    parser.add_argument(
        "--lang", default="de", help="the reader's language: en, de, ja (default de)"
    )
    parser.add_argument(
        "--repeat", type=int, default=5, help="builds of each form, timed as a mean (default 5)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    state = get_game("comune").new_state()
    rng = random.Random(args.seed)
    for _ in range(args.moves):
        state.play(rng.choice(state.legal_moves()))
    words = language(args.lang)
    moves = state.legal_moves()

    def whole() -> str:
        return json.dumps(localized([offered_move(state, m) for m in moves], words))

    def compact() -> str:
        legal, extra = compact_moves(state, moves, False)  # Comune: any cell of a move
        return json.dumps(localized({"legal": legal, **extra}, words))

    cell = state.move_cells(moves[-1])[0]

    def one_cell() -> str:
        return json.dumps(localized(completions(state, cell), words))

    rows = []
    for name, work in (("whole legal list", whole), ("compact", compact), ("one cell", one_cell)):
        seconds, out = timed(work, args.repeat)
        rows.append({"form": name, "kb": len(out.encode()) / 1024, "ms": 1000 * seconds})
    if args.json:
        print(json.dumps({"legal_moves": len(moves), "rows": rows}))
        return
    print(f"Comune after {args.moves} random moves: {len(moves)} legal moves")
    print(f"{'form':<28}{'JSON KB':>10}{'ms':>10}")
    for row in rows:
        print(f"{row['form']:<28}{row['kb']:>10.1f}{row['ms']:>10.1f}")


if __name__ == "__main__":
    main()
