"""What a browser is sent about a game: the board as SVG from the engine, the legal moves as
structured data (only to the player to move), the move list, whose turn, scores, the clocks
and the result. A spectator (anyone without a seat) gets the same view without legal moves; a
private game's view is refused to everyone but its players.

Nothing here decides a rule, and nothing here knows a game: each legal move is sent as
``{"text", "cells", "label", ...}`` from the protocol (``move_cells``, ``move_label``,
``move_info``), and the game's ``ui_hints`` tell the page what to prompt and which page
module, if any, the game brings. The browser matches clicks against the cells and sends the
text back. The secret seed and anything from it are never part of a view.
"""

from __future__ import annotations

import dataclasses
import html
import inspect
import json
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import orjson
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from ludoteca.core.errors import GameError
from ludoteca.core.messages import N_, Text, from_stored
from ludoteca.core.protocol import CHANCE, TERMINAL, Result, State, joined_names
from ludoteca.web.i18n.catalogs import Language, language
from ludoteca.web.infra.briefly import Kept
from ludoteca.web.infra.store import GameRow, User, utcnow
from ludoteca.web.round import clocks
from ludoteca.web.round.access import check_may_watch, is_to_move, seat_text
from ludoteca.web.round.log import log_names, told
from ludoteca.web.round.service import PlayedMove

MAX_LEGAL_SENT = 20000
COMPACT_OVER = 300
"""A page that asks for the compact form (``compact``) is sent at most this many legal moves
whole; beyond it (Comune's thousands of two-piece turns) it gets the cells that can be
clicked and the moves that name no cell, and asks for a clicked cell's moves
(:func:`completions`)."""
TABLE = Text("table")
"""The table's side: who draws a chance move (a die, a deal)."""


def board_svg(state: State, highlight=(), translate: Callable[[str], str] = str) -> str:
    """The engine's SVG (its words in ``translate``'s language); a plain text board inside an
    SVG for a game that has none yet."""
    try:
        if not _translates(type(state.game)):  # a game written before the languages
            return state.game.render_svg(state, highlight=highlight)
        return state.game.render_svg(state, highlight=highlight, translate=translate)
    except NotImplementedError:
        lines = state.game.render_text(state, color=False).splitlines() or [""]
        height = 20 * len(lines) + 20
        width = 10 * max(len(line) for line in lines) + 20
        body = "".join(
            f'<text x="10" y="{20 * (i + 1)}" xml:space="preserve">{html.escape(line)}</text>'
            for i, line in enumerate(lines)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="board {state.game.id} textboard" '
            f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="16">{body}</svg>'
        )


@cache
def _translates(game: type) -> bool:
    """Whether ``game``'s ``render_svg`` takes ``translate`` (the protocol's does)."""
    return "translate" in inspect.signature(game.render_svg).parameters


def side(state: State, player: int) -> str:
    if player == CHANCE:
        return TABLE
    if player == TERMINAL:
        return ""
    return state.side_name(player)


def localized(value: Any, lang: Language) -> Any:
    """``value`` with every :class:`~ludoteca.core.messages.Text` in it translated (the
    engines' and the club's words in a view: sides, labels, prompts, results), looking into
    its dicts and lists. Tuples are passed through as they are: plain data with nothing to
    translate, which a game may hand over in bulk (Comino's tile turns) without every page
    walking it."""
    if isinstance(value, Text):
        return lang.text(value)
    if isinstance(value, dict):
        return {key: localized(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [localized(item, lang) for item in value]
    return value


def shared_view(
    row: GameRow, state: State, moves: list[PlayedMove], lang: Language | None = None
) -> dict[str, Any]:
    """The part of a view that is the same for every watcher who reads ``lang``: drawn once
    per change and language, however many watch (:func:`shared_text` keeps it encoded)."""
    lang = lang or language("en")
    to_move = state.to_move if row.status == "active" else TERMINAL
    scores = state.scores()
    return {
        "type": "state",
        "id": row.id,
        "game": row.game,
        "title": state.game.title,
        "status": row.status,
        "ply": row.ply,
        "to_move": to_move,
        "to_move_side": side(state, to_move) if to_move >= 0 else "",
        "to_move_label": seat_text(row.seats[to_move]) if 0 <= to_move < len(row.seats) else "",
        "private": row.private,
        "move_help": Text(state.game.move_help),
        "svg": board_svg(state, translate=lang.text),
        "last_cells": last_cells(state, moves),
        "moves": moves_list(state, moves, lang),
        "scores": list(scores) if scores is not None else None,
        "summary": (told(state, log_names(row, state)) if row.ply else None) or "",
        "result": row.result,
        "result_text": result_text(row, state),
    }


def moves_list(state: State, moves: list[PlayedMove], lang: Language) -> list[dict[str, Any]]:
    """The game's moves as a view lists them, their words already in ``lang``: each side's
    name once per view, and each stored note read and translated once per process
    (:func:`note_in`), not again for every move at every view."""
    sides: dict[int, str] = {}
    out = []
    for m in moves:
        name = sides.get(m.player)
        if name is None:
            name = sides[m.player] = localized(side(state, m.player), lang)
        out.append(
            {
                "ply": m.ply + 1,
                "text": m.text,
                "player": m.player,
                "side": name,
                "note": note_in(m.note, lang) if m.note else "",
            }
        )
    return out


_NOTES: dict[tuple[str, str], str] = {}
NOTES_KEPT = 100_000
"""Translated notes kept (a few dozen bytes each): every move of some thousand games."""


def note_in(stored: str, lang: Language) -> str:
    """A move's stored note (:func:`~ludoteca.core.messages.from_stored`) in ``lang``. Notes
    never change once stored, and the views after every move list them all again."""
    key = (lang.code, stored)
    text = _NOTES.get(key)
    if text is None:
        if len(_NOTES) >= NOTES_KEPT:
            _NOTES.clear()
        text = _NOTES[key] = localized(from_stored(stored), lang)
    return text


def personal_view(
    row: GameRow, state: State, viewer: User | None, lang: Language, compact: bool = False
) -> dict[str, Any]:
    """The part of a view that depends on who watches (and the clock, which runs).
    ``compact``: the legal moves as :data:`COMPACT_OVER` says, for the game page; they come
    in ``lang`` already (:func:`offers`), the rest is for the caller to translate."""
    check_may_watch(row, viewer)
    seats = []
    for s in row.seats:
        seats.append(
            {
                "index": s.index,
                "side": side(state, s.index),
                "label": seat_text(s),
                "kind": s.kind,
                "you": viewer is not None and s.user_id == viewer.id,
                "resigned": s.resigned,
                "timed_out": s.timed_out,
            }
        )
    your_turn = is_to_move(row, state, viewer)
    hints: dict[str, Any] = {"prompt": "", "first": "any"}
    legal: Sequence[dict[str, Any]] = ()
    partial: dict[str, Any] = {}
    if your_turn:
        legal, partial, hints = offers(row, state, lang, compact)
    return {
        **partial,
        "your_turn": your_turn,
        "watching": not any(s["you"] for s in seats),
        "clock": clocks.clock_view(row, utcnow()),
        "seats": seats,
        "legal": legal,
        "result_you": result_for(row, state, viewer),
        "hints": hints,
    }


OFFERS_KEPT = 256
_OFFERS = Kept(OFFERS_KEPT)


def offers(
    row: GameRow, state: State, lang: Language, compact: bool
) -> tuple[Offered, dict[str, Any], dict[str, Any]]:
    """What the player to move is offered: the legal moves (whole, or in the compact form of
    :data:`COMPACT_OVER`) in ``lang``, that form's fields, and the game's hints.

    They are the same whoever asks, so they are made once per position (the game's ply),
    form and language and kept, as the shared part is: the mover's view after the move
    before, their game page, every reload and reconnection. The moves come as a tuple of
    translated moves, which :func:`localized` passes through as they are."""

    def make() -> tuple[Offered, dict[str, Any], dict[str, Any]]:
        hints = ui_hints(state)
        moves = state.legal_moves()
        partial: dict[str, Any] = {}
        if compact and len(moves) > COMPACT_OVER:  # the whole sequence, never listed
            legal, partial = compact_moves(state, moves, hints["first"] == "origin")
        else:
            legal = [offered_move(state, m) for m in moves[:MAX_LEGAL_SENT]]
        return Offered(localized(legal, lang)), partial, hints

    # the count of takebacks too: after one, a later move brings back a ply of another line
    key = (lang.code, row.id, row.created, row.takebacks, row.ply, compact)
    return _OFFERS.get(key, make)


class Offered(tuple):
    """The legal moves offered at a position (translated dicts), with their JSON text made
    once: every view of the player to move holds them (an API client reads the position two
    or three times a move), and encoding them again was most of what such a view cost."""

    encoded: bytes

    def __new__(cls, moves: Sequence[dict[str, Any]]) -> Offered:
        offered = super().__new__(cls, moves)
        offered.encoded = _dumps(list(offered))
        return offered


def _encoded(value: Any) -> Any:
    """orjson's hook for what it does not encode itself: moves already encoded."""
    if isinstance(value, Offered):
        return orjson.Fragment(value.encoded)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (orjson: several times the standard library's speed;
    the standard library for an integer past 64 bits, which orjson refuses)."""
    try:
        return orjson.dumps(value, default=_encoded, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def encode(value: dict[str, Any], lang: Language | None = None) -> str:
    """JSON text of a view, its words in ``lang`` (English without one)."""
    if lang is not None:
        value = localized(value, lang)
    return _dumps(value).decode()


def joined(shared: str, personal: dict[str, Any], lang: Language | None = None) -> str:
    """One JSON object from the encoded shared part and a personal part (no key in both)."""
    return shared[:-1] + "," + encode(personal, lang)[1:]


SHARED_KEPT = 1024
_SHARED = Kept(SHARED_KEPT)


def shared_text(
    row: GameRow, state: State, moves: list[PlayedMove], lang: Language | None = None
) -> str:
    """:func:`shared_view` encoded, kept for the game's current version (its line of moves,
    ply, status and seats) and language: the broadcast after a move, the mover's refresh and
    every watcher's reconnection then draw the board and encode it once between them."""
    lang = lang or language("en")
    key = (
        lang.code,
        row.id,
        row.takebacks,  # after a takeback, a later move brings back a ply of another line
        row.ply,
        row.status,
        tuple((s.kind, s.user_id, s.resigned, s.timed_out) for s in row.seats),
    )
    return _SHARED.get(key, lambda: encode(shared_view(row, state, moves, lang), lang))


def page_view(
    row: GameRow,
    state: State,
    moves: list[PlayedMove],
    viewer: User | None,
    lang: Language | None = None,
    compact: bool = False,
) -> tuple[dict[str, Any], str]:
    """The whole view of a game for ``viewer`` in ``lang`` (English by default), as a dict
    and as JSON text: what every watcher shares (the board, the moves, the result) and what
    is theirs (their seat, their turn, their legal moves, in the compact form if asked). A
    game page shows some fields of the dict and hands the text to its script: the kept
    encoding of the shared part serves it without encoding the board again."""
    lang = lang or language("en")
    # refuses a private game's visitor first
    personal = localized(personal_view(row, state, viewer, lang, compact), lang)
    # the shared part as every watcher gets it: drawn once per version (see shared_text)
    shared = shared_text(row, state, moves, lang)
    return {**json.loads(shared), **personal}, joined(shared, personal)


def script_json(text: str) -> Markup:
    """JSON text made safe to place in a page's ``<script>`` element by Jinja's own escaping
    (what its ``tojson`` filter does), without encoding the view again: the text is handed
    to it as already dumped. Those characters only occur inside JSON strings, where an escape
    reads the same."""
    return htmlsafe_json_dumps(text, dumps=lambda encoded: encoded)


def compact_moves(
    state: State, moves: Sequence[Any], origin: bool
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The compact form of many legal moves (:meth:`State.move_outline`): those naming no
    cell whole, and the cells a first click may take (``targets``: every cell of a move, or,
    ``origin``, each move's first cell, as when a piece moves from it); ``legal_count`` says
    how many."""
    plain, cells = state.move_outline(moves, origin)
    return [offered_move(state, move) for move in plain], {
        "legal_partial": True,
        "legal_count": len(moves),
        "targets": sorted(cells),
    }


def completions(state: State, cell: str) -> list[dict[str, Any]]:
    """The legal moves naming ``cell``, whole: what a compact page asks for once a cell of
    its board is clicked (the next clicks narrow them down on the page)."""
    out = []
    for move in state.legal_moves()[:MAX_LEGAL_SENT]:
        if cell in state.move_cells(move):
            out.append(offered_move(state, move))
    return out


def offered_move(state: State, move: Any) -> dict[str, Any]:
    """A legal move as the page offers it: its text (what is sent back), the board cells it
    names in click order, the words for it, and any facts the game's page module reads."""
    return {
        **state.move_info(move),
        "text": state.move_to_str(move),
        "cells": list(state.move_cells(move)),
        "label": state.move_label(move),
    }


def ui_hints(state: State) -> dict[str, Any]:
    """The game's hints for the page (``prompt``, ``first``, and a ``module`` the game
    brings its own page code in, if any)."""
    hints = {"prompt": "", "first": "any", **state.game.ui_hints(state)}
    return hints


def result_text(row: GameRow, state: State) -> str:
    """The finished game's result as the page shows it, naming the people who played, with
    the rules' reason when the rules ended it (``Winner: ann (light) — light has no move``);
    ``""`` while the game is on."""
    if row.status != "finished" or not row.result or row.result.get("over") is not True:
        return ""
    result = Result.from_json(row.result, state.num_players)
    names = [
        Text("{name} ({side})", {"name": seat_text(s), "side": side(state, s.index)})
        for s in row.seats
    ]
    # The stored reason is English: the headline goes without it, the reason follows in
    # the reader's words.
    headline = dataclasses.replace(result, reason="").headline(names)
    reason = ended_because(result, state)
    if not reason:
        return headline
    return Text("{result} — {reason}", {"result": headline, "reason": reason})


def ended_because(result: Result, state: State) -> str:
    """Why the game ended, translatable: the engine's own words when the rules ended it (the
    stored reason is their English), else who resigned or ran out of time."""
    if result.ended == "rules":
        ended = state.result
        return ended.reason if ended is not None else result.reason
    templates = {
        "resignation": (N_("{sides} resigned"), result.resigned),
        "time": (N_("{sides} ran out of time"), result.timed_out),
        "abandoned": (N_("{sides} abandoned the game"), result.timed_out),
    }
    agreed = {"agreement": N_("draw agreed"), "aborted": N_("aborted by the players")}
    if result.ended in agreed:
        return Text(agreed[result.ended])
    if result.ended not in templates:
        return result.reason
    template, players = templates[result.ended]
    return Text(template, {"sides": joined_names([side(state, p) for p in players])})


ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
"""Places in words (any other is :data:`NTH`), marked for the catalogs."""
NTH = N_("{n}th")


def _score(value: float) -> str:
    return f"{value:g}"


def result_for(row: GameRow, state: State, viewer: User | None) -> str:
    """The result as the person reading it played it: ``You won 54 to 32``, ``You came 2nd
    of 4``, ``You resigned``; ``""`` for a watcher or while the game is on."""
    if viewer is None or row.status != "finished" or not row.result:
        return ""
    mine = [s.index for s in row.seats if s.user_id == viewer.id]
    if len(mine) != 1:
        return ""  # not a player, or one person in several seats: the plain result says it
    me = mine[0]
    try:
        result = Result.from_json(row.result, state.num_players)
    except (ValueError, TypeError):
        return ""
    n = state.num_players
    scores = result.scores
    if me in result.resigned:
        return Text("You resigned")
    if me in result.timed_out:
        return Text("You ran out of time")
    if result.ended == "aborted":
        return Text("Aborted: no result")
    if result.draw:
        if scores is not None and n == 2:
            return Text(
                "Draw, {mine} to {theirs}",
                {"mine": _score(scores[me]), "theirs": _score(scores[1 - me])},
            )
        return Text("Draw")
    if n == 2:
        won = me in result.winners
        if scores is not None:
            fields = {"mine": _score(scores[me]), "theirs": _score(scores[1 - me])}
            if won:
                return Text("You won {mine} to {theirs}", fields)
            return Text("You lost {mine} to {theirs}", fields)
        return Text("You won") if won else Text("You lost")
    if scores is not None and result.ended == "rules":
        place = 1 + sum(1 for s in scores if s > scores[me])
        ordinal = Text(ORDINALS.get(place, NTH), {"n": place})
        return Text("You came {place} of {n}", {"place": ordinal, "n": n})
    return Text("You won") if me in result.winners else Text("You did not win")


def last_cells(state: State, moves: list[PlayedMove]) -> list[str]:
    """The board cells the last player's move named (the table's draws are skipped), so the
    page can mark what the opponent, or the computer, just did."""
    for played in reversed(moves):
        if played.player < 0:
            continue
        try:
            return list(state.move_cells(played.text))
        except GameError:  # a text this position no longer reads: nothing to mark
            return []
    return []
