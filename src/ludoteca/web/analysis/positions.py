"""Positions on the analysis board: read from notation, a move played on one, and what the
page is sent of one. Nothing is stored: the position travels in the page and its link.

What the page is sent is cheap, for anyone may ask without an account: a position with more
than :data:`~ludoteca.web.round.view.COMPACT_OVER` legal moves (Comune's thousands of turns)
comes in the compact form the game page uses, the cells a first click may take, and the page
asks for a clicked cell's moves (:func:`moves_with_cell`). A mid-game Comune position took
235 ms and 286 KB listing 3000 of its 9403 turns; compact, a few milliseconds and 25 KB. The
views last asked for are kept (:data:`KEPT`), keyed by everything they depend on."""

from __future__ import annotations

from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import CHANCE, Result, State
from ludoteca.core.registry import get as get_game
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.infra.briefly import Kept
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.catalog import available_games, players_for
from ludoteca.web.round.view import (
    COMPACT_OVER,
    board_svg,
    compact_moves,
    completions,
    localized,
    offered_move,
    ui_hints,
)

MAX_POSITION = 20_000
KEPT = Kept(size=128)
"""The analysis views last made (a shared link opened by many, a page reloaded)."""


def options_for(game_id: str, players: object) -> dict[str, Any]:
    cls = available_games().get(game_id)
    if cls is None:
        raise ClubError("There is no game called {game_id!r}.", 404, game_id=str(game_id)[:40])
    if cls.min_players == cls.max_players:
        return {}
    n = players_for(cls, min(2, cls.max_players) if players in (None, "") else players)
    return {"players": n}


def state_of(game_id: str, options: dict[str, Any], position: str | None) -> State:
    """The position in notation, or the game's start (its deal or dice still to come)."""
    game = get_game(game_id, **options)
    if not position:
        return game.new_state(seed=1)
    if len(position) > MAX_POSITION:
        raise ClubError("That position is too long to be one of this game's.")
    try:
        return game.from_position(position)
    except GameError as exc:
        raise ClubError(
            "That is not a {title} position: {why}", title=game.title, why=exc.text
        ) from None


def played(state: State, text: object) -> State:
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise ClubError("A move is a non-empty text in the game's notation.")
    after = state.clone()
    try:
        after.play(after.str_to_move(text.strip()))
    except GameError as exc:
        raise ClubError(
            "Move {text!r} refused: {why}.", text=text.strip()[:40], why=exc.text
        ) from None
    return after


def board_view(
    game_id: str, options: dict[str, Any], state: State, words: Language, last: str = ""
) -> dict:
    """What the analysis page shows of a position, in ``words``'s language (kept: the
    caller must not change it)."""
    key = (game_id, tuple(sorted(options.items())), state.position(), words.code, last)
    return KEPT.get(key, lambda: _board_view(game_id, options, state, words, last))


def _board_view(
    game_id: str, options: dict[str, Any], state: State, words: Language, last: str
) -> dict:
    cells: list[str] = []
    if last:
        try:
            cells = list(state.move_cells(last))
        except GameError:
            cells = []
    chance = []
    legal = []
    partial: dict[str, Any] = {}
    hints = {"prompt": "", "first": "any"}
    if not state.is_over:
        if state.to_move == CHANCE:
            chance = [
                {"text": state.move_to_str(m), "probability": round(p, 4)}
                for m, p in state.chance_outcomes()
            ]
        else:
            moves = state.legal_moves()
            hints = ui_hints(state)
            if len(moves) > COMPACT_OVER:
                legal, partial = compact_moves(state, moves, hints["first"] == "origin")
            else:
                legal = [offered_move(state, m) for m in moves]
    result = ""
    if state.is_over and state.result is not None:
        names = [state.side_name(p) for p in range(state.num_players)]
        result = Result.describe(state.result, names)
    view = {
        "game": game_id,
        "options": options,
        "title": state.game.title,
        "position": state.position(),
        "svg": board_svg(state, translate=words.text),
        "to_move": state.to_move,
        "side": state.side_name(state.to_move) if state.to_move >= 0 else "",
        "legal": legal,
        **partial,
        "chance": chance,
        "hints": hints,
        "over": state.is_over,
        "result": result,
        "last_cells": cells,
        "summary": state.last_move_summary() or "",
    }
    return localized(view, words)


def moves_with_cell(state: State, cell: object, words: Language) -> list[dict]:
    """The legal moves naming ``cell``, whole: what a compact page asks once it is clicked."""
    if not isinstance(cell, str) or not 0 < len(cell) <= 32:
        raise ClubError("Name the cell: ?cell=…")
    if state.is_over or state.to_move == CHANCE:
        return []
    return localized(completions(state, cell), words)
