"""``ludoteca play GAME``: a game in the terminal against the computer or another person.

Generic over the protocol: the game draws its board (``render_text``), the engine checks
every move, the table draws chance outcomes, and the record is saved at the end. Ctrl-C
saves it too, unfinished, as ``quit`` does (a game is never thrown away), and the command
then stops with status 130. The record's path is checked before the game starts.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import textwrap
import threading
import time
from contextlib import nullcontext, suppress
from pathlib import Path

from ludoteca.bots.registry import make_bot
from ludoteca.core.errors import GameError, MalformedError
from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.table import Table
from ludoteca.record import RecordExistsError, from_table, save, save_new

from ..common import (
    EXIT_INTERRUPTED,
    add_game_argument,
    add_players_argument,
    add_seed_argument,
    check_output_file,
    check_output_folder,
    error_line,
    game_from_args,
    parsing,
    result_line,
    whole_number,
)

DEFAULT_FOLDER = "ludoteca-games"

HELP = """commands:
  <move>       play a move in the game's notation
  moves, ?     list the legal moves
  moves TEXT   list only the legal moves whose notation holds TEXT, e.g. moves e5
  board        draw the board again (Ctrl-L clears the screen first)
  undo         take back your last move (and the computer's reply)
  resign       give up the game
  help         this text
  quit         stop now (the record is saved, unfinished; so does Ctrl-C)"""

MANY_MOVES = 300
"""More legal moves than a screen shows: ``moves`` then gives the count and how to filter
(a Comune turn has over 9,000)."""


def register(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against the computer or a person",
        description="Play GAME in the terminal. Each seat is a person ('human') or a bot spec "
        "('random', a level such as 'hard', or 'mcts:seconds=1'; budgets within seconds<=3600, "
        "iterations<=100000000, depth<=64). A bot that cannot play the game is refused before "
        "it starts. The record is saved however the game ends (also, unfinished, on quit or "
        "Ctrl-C); where it cannot be written, it is saved elsewhere and the place is said. "
        "At the prompt: moves [TEXT], board, undo, resign, help, quit.",
    )
    add_game_argument(p)
    p.add_argument(
        "--vs",
        default="random",
        metavar="OPPONENT",
        help="who the other seats are: human, random, or a bot spec (default: random)",
    )
    p.add_argument(
        "--seat",
        type=whole_number(1, 99),
        default=1,
        metavar="N",
        help="the seat you take, 1 = first to move (default: 1)",
    )
    p.add_argument(
        "--seats",
        metavar="LIST",
        help="every seat, comma-separated, e.g. human,random,hard (overrides --vs/--seat)",
    )
    add_players_argument(p)
    add_seed_argument(p, None, "seed for the set-up, dice and deals (default: random)")
    p.add_argument(
        "--record",
        metavar="PATH",
        help="where to save the record (default: a new file ludoteca-games/GAME-TIME.json); "
        "an existing file is refused unless --force",
    )
    p.add_argument(
        "--force", action="store_true", help="replace the file --record names if it exists"
    )
    p.add_argument("--no-color", action="store_true", help="never use colour")
    p.set_defaults(func=run)


class TerminalGame:
    def __init__(self, args) -> None:
        if args.record:
            check_output_file(args.record, "--record", create_parents=True)
            if Path(args.record).is_file() and not args.force:
                raise MalformedError(
                    args.record, "--record: a file is already there (add --force to replace it)"
                )
        else:
            check_output_folder(DEFAULT_FOLDER, "the record folder")
        self.force = bool(args.force)
        self.game = game_from_args(args, players=args.players)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        self.table = Table.new(self.game, seed=seed)
        self.seed = seed
        n = self.state.num_players
        if args.seats:
            roles = [r.strip() for r in args.seats.split(",")]
            if len(roles) != n:
                raise MalformedError(
                    args.seats, f"{self.game.id} has {n} seats here, not {len(roles)}"
                )
        else:
            if not 1 <= args.seat <= n:
                raise MalformedError(str(args.seat), f"--seat must be between 1 and {n}")
            roles = [args.vs] * n
            roles[args.seat - 1] = "human"
        self.roles = roles
        self.table.players = list(roles)
        self.bots = {
            i: make_bot(role, seed=self.seed + i) for i, role in enumerate(roles) if role != "human"
        }
        for i, bot in self.bots.items():  # refused now, not when the bot first moves
            check_bot_plays(bot, roles[i], self.game)
        # A bot that searches with the game's compiled playouts gets them ready in the
        # background (importing numba and loading its cache take seconds), so the board
        # shows at once and the bot's first move, which waits for it, does not pay for it.
        self.warming = threading.Thread(target=self._warm_up, daemon=True)
        self.warming.start()
        self.taken: list[int] = []
        """The ply before each move a person made: where ``undo`` goes back to."""
        self.color = sys.stdout.isatty() and not args.no_color
        if sys.stdin.isatty():
            line_editing()
        self.path: Path | None = Path(args.record) if args.record else None
        """Where the person asked the record to go; ``None``: a new file in the default folder."""
        self.stem = f"{self.game.id}-{time.strftime('%Y%m%d-%H%M%S')}"
        if self.color:
            from rich.console import Console

            self.console = Console(highlight=False)

    @property
    def state(self) -> State:
        return self.table.state

    def _warm_up(self) -> None:
        state = self.state.clone()
        for bot in self.bots.values():
            bot.warm_up(state)

    # --- output ---------------------------------------------------------------------------
    def say(self, text: str, markup: bool = False) -> None:
        if self.color and markup:
            self.console.print(text)
        else:
            print(text, flush=True)

    def draw(self) -> None:
        self.say(self.game.render_text(self.state, color=self.color), markup=True)
        scores = self.state.scores()
        if scores is not None:
            self.say(
                "scores: "
                + ", ".join(f"{self.state.side_name(p)} {s:g}" for p, s in enumerate(scores))
            )

    def label(self, player: int) -> str:
        alone = self.roles.count("human") == 1  # against the computer, or solo
        who = "you" if self.roles[player] == "human" and alone else self.roles[player]
        return f"{self.state.side_name(player)} ({who})"

    # --- the loop -------------------------------------------------------------------------
    def play_move(self, move, by: str, quiet: bool = False) -> None:
        # only typed text is the person's input; a bot's or the table's move failing is a bug
        typed = isinstance(move, str)
        with parsing(move, f"a {self.game.id} move") if typed else nullcontext():
            text = self.table.play(move)  # typed text: parsed, played, logged canonical
        if quiet:
            return
        self.say(f"{self.table.ply:3d}. {by}: {text}")
        summary = self.state.last_move_summary()
        if summary:
            self.say(f"     {summary}")

    def chance_moves(self) -> None:
        """Play the table's outcomes until a player is to move: one line for a roll, and
        one line for a run of them (Comino's deal of 21 tiles is not 21 lines)."""
        first = self.table.ply + 1
        texts = []
        while self.state.to_move == CHANCE and not self.state.is_over:
            if texts:
                texts.append(self.table.play(self.table.draw()))
                continue
            self.play_move(self.table.draw(), "chance", quiet=True)
            texts.append(self.table.moves[-1])
        if len(texts) == 1:
            self.say(f"{first:3d}. chance: {texts[0]}")
            summary = self.state.last_move_summary()
            if summary:
                self.say(f"     {summary}")
            return
        self.say(f"{first:3d}-{self.table.ply}. chance: {summarise_outcomes(texts)}")

    def run(self) -> int:
        """Play to the end; on Ctrl-C save what was played, as ``quit`` does, and stop.
        Whatever else ends the game (a bot that fails, a closed terminal) saves it too
        before the error is reported."""
        try:
            return self._play()
        except KeyboardInterrupt:
            self.say("\ninterrupted.")
            self.finish(quit=True)
            return EXIT_INTERRUPTED
        except BaseException:
            self.save(reason="stopped by an error")
            raise

    def _play(self) -> int:
        g = self.game
        self.say(
            f"{g.title} - seed {self.seed}. Seats: "
            + ", ".join(f"{i + 1} {r}" for i, r in enumerate(self.roles))
        )
        if g.move_help:  # broken between words at the terminal's width, not inside them
            width = shutil.get_terminal_size((100, 24)).columns - 1
            self.say("\n".join(textwrap.fill(part, width) for part in str(g.move_help).split("\n")))
        self.say("Type 'help' for commands.")
        while not self.state.is_over:
            player = self.state.to_move
            if player == CHANCE:
                self.chance_moves()
                continue
            if player in self.bots:
                self.warming.join()
                move = self.bots[player].choose(self.state)
                self.play_move(move, self.label(player))
                continue
            outcome = self.human_turn(player)
            if outcome == "quit":
                return self.finish(quit=True)
            if outcome == "resign":
                self.table.resign(player)
                self.say(f"{self.state.side_name(player)} resigned.")
                self.save()
                return 0
        self.draw()
        self.say(f"game over: {result_line(self.state)}")
        return self.finish()

    def human_turn(self, player: int) -> str:
        """Ask until a legal move is played; return "move", "quit" or "resign"."""
        self.draw()
        while True:
            try:
                line = input(f"{self.label(player)} to move> ").strip()
            except EOFError:
                self.say("")
                return "quit"
            if "\x0c" in line:  # Ctrl-L without line editing: arrives with the line
                line = line.replace("\x0c", "").strip()
                self.clear_screen()
                if not line:
                    self.draw()
                    continue
            word = line.lower()
            if not line:
                continue
            if word in ("help", "h"):
                self.say(HELP)
            elif word.split()[0] in ("moves", "?", "legal"):
                self.list_moves(line.split(maxsplit=1)[1] if " " in line else "")
            elif word == "board":
                self.draw()
            elif word == "undo":
                if self.undo():
                    self.draw()
            elif word == "resign":
                return "resign"
            elif word in ("quit", "exit"):
                return "quit"
            else:
                before = self.table.ply
                try:
                    self.play_move(line, self.label(player))
                except GameError as exc:
                    self.say(f"  {error_line(exc)}. Type 'moves' for the legal moves.")
                    continue
                self.taken.append(before)
                return "move"

    def clear_screen(self) -> None:
        if sys.stdout.isatty():
            print("\x1b[H\x1b[2J", end="", flush=True)

    def list_moves(self, part: str) -> None:
        """The legal moves (those whose notation holds ``part``), wrapped between moves to
        the terminal's width; a list longer than a screen is only counted."""
        moves = sorted(self.state.move_to_str(m) for m in self.state.legal_moves())
        if part:
            key = part.strip().lower()
            moves = [m for m in moves if key in m.lower()]
            if not moves:
                self.say(f"  no legal move holds {part.strip()!r}")
                return
        if len(moves) > MANY_MOVES and not part:  # a filtered list is what was asked for
            self.say(
                f"  {len(moves)} legal moves: too many to list; type 'moves CELL' for those "
                "that use a cell (e.g. moves e5)"
            )
            return
        self.say(wrap_moves(moves))

    def undo(self) -> bool:
        if not self.taken:
            self.say("  nothing to undo")
            return False
        if not self.bots:
            self.say("  undo is for games against the computer")
            return False
        self.table.rewind(self.taken.pop())  # the chance drawn again is the same: per ply
        self.say("  taken back")
        return True

    def save(self, reason: str | None = None) -> None:
        """Save the record where asked; where that fails (a full disk, a file the system will
        not let us write), say so in one line and save it in the first place that works."""
        record = from_table(self.table, reason=reason)
        path = None
        try:
            if self.path is None:
                path = save_new(record, DEFAULT_FOLDER, self.stem)
            else:
                path = save(record, self.path, overwrite=self.force)
        except RecordExistsError:
            print(
                f"ludoteca play: {self.path} appeared during the game; not replaced",
                file=sys.stderr,
            )
        except OSError as exc:
            where = self.path or Path(DEFAULT_FOLDER)
            print(
                f"ludoteca play: could not save the record to {where} ({save_failure(exc)})",
                file=sys.stderr,
            )
        if path is None:
            path = self._save_elsewhere(record)
            if path is None:
                print("ludoteca play: the record could not be saved anywhere", file=sys.stderr)
                print(record.dumps(), end="", flush=True)  # the game is at least on screen
                return
        self.say(f"record saved to {path} (replay it with: ludoteca replay {path})")

    def _save_elsewhere(self, record) -> Path | None:
        for folder in fallback_folders(self.path):
            try:
                return save_new(record, folder, self.stem)
            except OSError:
                continue
        return None

    def finish(self, quit: bool = False) -> int:
        if quit:
            self.say("game stopped before the end.")
        self.save()
        return 0


def summarise_outcomes(texts: list[str]) -> str:
    """A run of chance outcomes in one line: ``deal x21 (RYYY BBYR ...)`` when they share
    their first word, cut to the terminal's width (the board shows where they went)."""
    words = [t.split(" ", 1) for t in texts]
    if all(len(w) == 2 and w[0] == words[0][0] for w in words):
        line = f"{words[0][0]} x{len(texts)}: " + " ".join(w[1] for w in words)
    else:
        line = f"{len(texts)} outcomes: " + ", ".join(texts)
    width = shutil.get_terminal_size((100, 24)).columns - 16
    return line if len(line) <= width else line[: width - 3].rsplit(" ", 1)[0] + " ..."


def line_editing() -> None:
    """Arrow keys, history and Ctrl-L (clear the screen) at the move prompt, as in a shell;
    without it a terminal echoes ``^L`` and ``^[[A``."""
    with suppress(ImportError):  # not on every platform
        import readline

        readline.parse_and_bind(r'"\C-l": clear-screen')


def wrap_moves(moves: list[str], width: int | None = None) -> str:
    """Moves two spaces apart, lines broken only between moves (never inside ``E@ f4``)."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    lines: list[str] = []
    line = ""
    for move in moves:
        if line and len(line) + 2 + len(move) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {move}" if line else move
    lines.append(line)
    return "\n".join(lines)


def fallback_folders(asked: Path | None) -> list[Path]:
    """Where a record goes when the asked place cannot take it: the default folder here,
    the same in the home folder, then the system's temporary folder."""
    folders = [Path(DEFAULT_FOLDER), Path.home() / DEFAULT_FOLDER, Path(tempfile.gettempdir())]
    return [f for f in folders if asked is None or f.resolve() != asked.parent.resolve()]


def save_failure(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def check_bot_plays(bot, spec: str, game) -> None:
    reason = bot.cannot_play(game)
    if reason:
        raise MalformedError(spec, reason)


def run(args) -> int:
    return TerminalGame(args).run()
