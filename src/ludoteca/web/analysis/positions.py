"""Positions on the analysis board: read from notation, a move played on one, and what the
page is sent of one. Nothing is stored: the position travels in the page and its link."""

from __future__ import annotations

from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import CHANCE, Result, State
from ludoteca.core.registry import get as get_game
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.errors import ClubError
from ludoteca.web.round.view import board_svg, localized, offered_move, ui_hints

MAX_POSITION = 20_000
MAX_LEGAL = 3000


def options_for(game_id: str, players: object) -> dict[str, Any]:
    cls = available_games().get(game_id)
    if cls is None:
        raise ClubError("There is no game called {game_id!r}.", 404, game_id=str(game_id)[:40])
    if cls.min_players == cls.max_players:
        return {}
    try:
        n = int(str(players)) if players not in (None, "") else min(2, cls.max_players)
    except ValueError:
        raise ClubError("'players' must be a number.") from None
    if not cls.min_players <= n <= cls.max_players:
        raise ClubError(
            "{title} is for {min_players} to {max_players} players.",
            title=cls.title,
            min_players=cls.min_players,
            max_players=cls.max_players,
        )
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
    """What the analysis page shows of a position, in ``words``'s language."""
    cells: list[str] = []
    if last:
        try:
            cells = list(state.move_cells(last))
        except GameError:
            cells = []
    chance = []
    legal = []
    if not state.is_over:
        if state.to_move == CHANCE:
            chance = [
                {"text": state.move_to_str(m), "probability": round(p, 4)}
                for m, p in state.chance_outcomes()
            ]
        else:
            legal = [offered_move(state, m) for m in state.legal_moves()[:MAX_LEGAL]]
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
        "chance": chance,
        "hints": ui_hints(state) if legal else {"prompt": "", "first": "any"},
        "over": state.is_over,
        "result": result,
        "last_cells": cells,
        "summary": state.last_move_summary() or "",
    }
    return localized(view, words)
