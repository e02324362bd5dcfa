"""What makes a position a puzzle, and the proof that its answer is the one best move.

- **Kuniumi**: the exact endgame solver (``games.kuniumi.ai.solved``) proves that the answer
  wins and that every other move does not (it draws or loses); each wrong move is stored
  with the opponent's reply that refutes it. Only positions the solver finishes are kept.
- **Comune**: counted exactly over two turns (``games.comune.two_turns``: every turn, and
  the opponent's best answer to each), the answer (1) scores at least :data:`GAIN_MARGIN`
  more than every other turn, (2) leaves the mover's lead after the opponent's best answer
  at least :data:`NET_MARGIN` above every other turn's, and (3) leaves the mover level or
  ahead after that answer (a game already lost has no best move worth a puzzle); positions
  with fewer than :data:`MIN_TURNS` legal turns are not tried. Comune's
  searches cannot prove it: its product scores make their values flat (docs/puzzles.md).
- **Comino, Hexagone**: the answer must (1) gain more than every other legal move,
  counted exactly by the engine over all of them, by at least :data:`GAIN_MARGIN` (Comino:
  the points the placement scores; Hexagone: pieces captured), and (2) be the move both of
  two deep searches (the analysis board's, at the strongest level's settings,
  :data:`SEARCH_ITERATIONS` simulations each, seeds 1 and 2) visit most,
  with an expected result at least :data:`VALUE_MARGIN` above every alternative either
  search visited :data:`MIN_VISITS` times or more or proved; a search that compared the
  answer with no alternative proves nothing. A position that fails is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.protocol import CHANCE, State

GAIN_MARGIN = {"comune": 2.0, "comino": 2.0, "hexagone": 2.0}
"""How much more the answer must gain than the next best move (points; pieces)."""
NET_MARGIN = 2
"""Comune: how much more the answer's lead after the opponent's best answer must be."""
MIN_TURNS = 20
"""Comune: a position with fewer legal turns is too small a choice to be a puzzle (late in a
game a full board leaves a handful)."""
SEARCH_ITERATIONS = 1500
VALUE_MARGIN = 0.02
MIN_VISITS = 20
THEMES = {
    "kuniumi": ("close", "only-win"),
    "comune": ("most-score",),
    "comino": ("biggest-area",),
    "hexagone": ("capture",),
}


@dataclass
class Puzzle:
    game: str
    position: str
    answer: str
    theme: str
    proof: dict[str, Any] = field(default_factory=dict)
    refutations: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        import hashlib

        return hashlib.sha1(f"{self.game} {self.position}".encode()).hexdigest()[:12]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "position": self.position,
            "answer": self.answer,
            "theme": self.theme,
            "proof": self.proof,
            "refutations": self.refutations,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            data["game"],
            data["position"],
            data["answer"],
            data["theme"],
            dict(data.get("proof", {})),
            {k: list(v) for k, v in data.get("refutations", {}).items()},
            dict(data.get("options", {})),
        )


def gain(state: State, move: Any) -> float:
    """What a move gains at once, as the game's theme counts it (exact, by the engine)."""
    player = state.to_move
    before = state.scores()
    after = state.clone()
    after.play(move)
    scores = after.scores()
    if scores is None or before is None:
        return 0.0
    if state.game.id == "comune":
        return float(scores[player])
    return float(scores[player] - before[player])


def gains(state: State) -> list[tuple[float, str]]:
    return sorted(
        ((gain(state, m), state.move_to_str(m)) for m in state.legal_moves()), reverse=True
    )


# --- Kuniumi: the exact solver ------------------------------------------------------------------
PROOF_WORK = 50
"""A proof lets the solver search this many times the nodes a search's move may spend
(``games.kuniumi.ai.EXACT_WORK``): a give-up depends on what its shared table holds, and a
puzzle's proof should not."""


def solved(state: Any) -> int | None:
    """The exact value for the side to move (1, 0, -1), or ``None`` if the solver gave up."""
    from ludoteca.games.kuniumi import ai
    from ludoteca.games.kuniumi import flat as bits

    solve, tt_a, tt_b, tt_v, work, stack = ai._solver()
    work[0] = 0
    work[1] = ai.EXACT_WORK * PROOF_WORK
    v = solve(
        state.land,
        state.sea,
        state.earth_god,
        state.sea_god,
        state.side,
        tt_a,
        tt_b,
        tt_v,
        work,
        stack,
    )
    return None if v == bits.UNKNOWN else int(v)


def _kuniumi_value(state: State, move: Any) -> int | None:
    """The proven value of ``move`` for the side playing it: 1 win, 0 draw, -1 loss."""
    player = state.to_move
    child = state.clone()
    child.play(move)
    if child.is_over:
        winners = child.result.winners if child.result else ()
        return 1 if player in winners else (0 if not winners else -1)
    v = solved(child)
    return None if v is None else -v


def _kuniumi_refutation(state: State, move: Any) -> list[str]:
    """The opponent's reply that keeps the most for them after the wrong ``move``."""
    child = state.clone()
    child.play(move)
    if child.is_over:
        return []
    best, best_v = None, -2
    for reply in child.legal_moves():
        v = _kuniumi_value(child, reply)
        if v is not None and v > best_v:
            best, best_v = reply, v
            if v == 1:
                break
    return [child.move_to_str(best)] if best is not None else []


def kuniumi_holds(state: State, answer: str) -> bool:
    """A shipped Kuniumi puzzle proven again: the answer wins, every other move does not."""
    for m in state.legal_moves():
        v = _kuniumi_value(state, m)
        if v is None or (v == 1) != (state.move_to_str(m) == answer):
            return False
    return True


def prove_kuniumi(state: State) -> Puzzle | None:
    moves = state.legal_moves()
    if len(moves) < 3:
        return None
    values = {}
    for m in moves:
        v = _kuniumi_value(state, m)
        if v is None:
            return None  # the solver gave up: nothing is claimed
        values[m] = v
    wins = [m for m, v in values.items() if v == 1]
    if len(wins) != 1:
        return None
    answer = wins[0]
    child = state.clone()
    child.play(answer)
    theme = "close" if child.is_over else "only-win"
    refutations = {
        state.move_to_str(m): _kuniumi_refutation(state, m) for m in moves if m != answer
    }
    proof = {
        "method": "exact solver",
        "answer": 1,
        "others": {state.move_to_str(m): v for m, v in values.items() if m != answer},
    }
    return Puzzle("kuniumi", state.position(), state.move_to_str(answer), theme, proof, refutations)


# --- Comune: every turn and every answer, counted exactly ---------------------------------
def two_turn_counts(state: State) -> list[Any]:
    """Comune's turns counted over two turns (``games.comune.two_turns.TurnCount``)."""
    from ludoteca.games.comune.two_turns import count_turns

    return count_turns(state)  # type: ignore[arg-type]


def prove_two_turns(state: State, options: dict[str, Any]) -> Puzzle | None:
    """A Comune puzzle whose answer is best over two turns, counted exactly (module doc)."""
    counted = two_turn_counts(state)
    if len(counted) < MIN_TURNS:
        return None
    ranked = sorted(counted, key=lambda c: c.score, reverse=True)
    best, second = ranked[0], ranked[1]
    if best.score <= 0 or best.score - second.score < GAIN_MARGIN["comune"]:
        return None
    next_net = max(c.net for c in counted if c is not best)
    if best.net - next_net < NET_MARGIN or best.net < 0:
        return None
    proof = {
        "method": "exact two turns",
        "gain": best.score,
        "next_gain": second.score,
        "net": best.net,
        "next_net": next_net,
        "reply": state.move_to_str(best.reply) if not _ends(state, best.move) else "",
        "turns": len(counted),
    }
    return Puzzle(
        "comune", state.position(), state.move_to_str(best.move), "most-score", proof, {}, options
    )


def two_turn_line(state: State, move: Any) -> tuple[float, float, list[str]]:
    """What a Comune turn scores, the opponent's best score after their best answer, and that
    answer (none if the turn ends the game): the line that shows why a wrong move is not best."""
    for c in two_turn_counts(state):
        if c.move == move:
            line = [] if _ends(state, move) else [state.move_to_str(c.reply)]
            return float(c.score), float(c.reply_score), line
    raise ValueError(f"{state.move_to_str(move)} is not a legal move here")


def _ends(state: State, move: Any) -> bool:
    after = state.clone()
    after.play(move)
    return after.is_over


# --- Comino and Hexagone: exact gain, then two searches ---------------------------------------
def _search(state: State, seed: int, iterations: int) -> dict[str, Any]:
    from ludoteca.bots import position_analysis as pa

    session = pa.start(state, seed=seed)
    pa.think(session, iterations=iterations)
    root = session.root
    mover = state.to_move
    moves = sorted(
        pa._whole_moves(root), key=lambda ch: (ch.visits, pa._value(ch, mover)), reverse=True
    )
    return {
        "top": [
            (
                state.move_to_str(ch.move),
                ch.visits,
                round(pa._value(ch, mover), 4),
                ch.proven is not None,
            )
            for ch in moves
        ],
        "pv": pa.principal_variation(session),
    }


def candidate(state: State) -> tuple[str, float, float] | None:
    """The move that gains most by the margin, its gain and the next best gain; else None."""
    if state.is_over or state.to_move == CHANCE:
        return None
    ranked = gains(state)
    if len(ranked) < 3:
        return None
    (best, answer), (second, _) = ranked[0], ranked[1]
    if best - second < GAIN_MARGIN[state.game.id] or best <= 0:
        return None
    return answer, best, second


def prove_by_search(
    state: State, options: dict[str, Any], iterations: int = SEARCH_ITERATIONS
) -> Puzzle | None:
    found = candidate(state)
    if found is None:
        return None
    answer, best, second = found
    searches = []
    for seed in (1, 2):
        result = _search(state, seed, iterations)
        top = result["top"]
        if not top or top[0][0] != answer:
            return None
        value = top[0][2]
        # the alternatives the search knows something of: visited enough, or proven
        others = [v for _text, visits, v, proven in top[1:] if visits >= MIN_VISITS or proven]
        if not others:
            return None  # the search compared the answer with nothing: no proof
        margin = value - max(others)
        if margin < VALUE_MARGIN:
            return None
        searches.append(
            {"seed": seed, "iterations": iterations, "value": value, "margin": round(margin, 4)}
        )
    theme = THEMES[state.game.id][0]
    proof = {
        "method": "exact gain and two searches",
        "gain": best,
        "next_gain": second,
        "searches": searches,
    }
    refutations: dict[str, list[str]] = {}
    return Puzzle(state.game.id, state.position(), answer, theme, proof, refutations, options)


def prove(
    state: State, options: dict[str, Any] | None = None, iterations: int = SEARCH_ITERATIONS
) -> Puzzle | None:
    if state.is_over or state.to_move == CHANCE:
        return None
    if state.game.id == "kuniumi":
        return prove_kuniumi(state)
    if state.game.id == "comune":
        return prove_two_turns(state, dict(options or {}))
    return prove_by_search(state, dict(options or {}), iterations)
