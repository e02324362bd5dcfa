"""What the board draws, measured in Chromium: the page's own style sheet on the engine's own
drawing, the last move marked as the game page marks it (``last-move arrived``), and every
drawn piece compared with its cell while the arrival animates and after it.

No server: the drawing and the style sheet are put into a blank page, so each check costs a
fraction of a second."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.core import registry as games
from tests.web.drawn import clipped_text, pieces_off_cells

STYLE = Path(__file__).parents[2] / "src/ludoteca/web/static/style.css"


def board_page(browser, svg: str, marked: list[str], **context):
    """A page holding ``svg`` as the game page holds it, ``marked`` cells as the last move."""
    ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 800}} | context))
    page = ctx.new_page()
    page.set_content(
        f'<html><head><style>{STYLE.read_text()}</style></head><body><main><div class="play">'
        f'<section class="board-wrap"><div id="board" class="board-box">{svg}</div></section>'
        "</div></main></body></html>"
    )
    page.evaluate(
        """(cells) => { for (const c of cells) for (const n of document.querySelectorAll(
             `#board [data-cell="${CSS.escape(c)}"]`)) n.classList.add('last-move', 'arrived');
           }""",
        marked,
    )
    return ctx, page


BOXES = """els => els.map(e => { const r = e.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2, r.width, r.height]; })"""


def at_animation_time(page, fraction: float | None) -> None:
    """Hold every running animation at ``fraction`` of its length, or finish them all."""
    page.evaluate(
        """(f) => { for (const a of document.getAnimations()) {
             if (!a.effect || !isFinite(a.effect.getComputedTiming().endTime)) continue;
             if (f === null) a.finish();
             else { a.pause(); a.currentTime = f * a.effect.getTiming().duration; } } }""",
        fraction,
    )


def comune_after(*turns: str):
    state = games.get("comune").new_state(seed=1)
    for turn in turns:
        state.play(state.str_to_move(turn))
    return state


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_comunes_last_move_pieces_are_drawn_on_their_cells_while_and_after_they_arrive(
    browser, device
):
    """The last move's ``/`` and ``\\`` pieces were drawn off their cells (a fragment in a
    corner, or straddling another cell): the arrival's ``transform-origin: center`` with
    ``transform-box: fill-box`` combined with the piece's own ``rotate(±60 cx cy)``."""
    from ludoteca.games.comune.render import render_svg

    state = comune_after("e5/", "g8\\ c3/")
    size = {"phone": {"viewport": {"width": 390, "height": 844}}}.get(device, {})
    ctx, page = board_page(browser, render_svg(state), ["g8", "c3"], **size)
    boxes = []
    for moment in (0.0, 0.5, None):
        at_animation_time(page, moment)
        assert pieces_off_cells(page) == [], f"at {moment or 'the end'} of the arrival"
        boxes.append(page.eval_on_selector_all("#board .piece.arrived", BOXES))
    # While it arrives a piece is drawn as it ends: same place, same angle (a CSS transform
    # had replaced its rotation, so it arrived lying flat).
    for during in boxes[:-1]:
        for (x, y, w, h), (x1, y1, w1, h1) in zip(during, boxes[-1], strict=True):
            assert abs(x - x1) < 1.5 and abs(y - y1) < 1.5, (during, boxes[-1])
            assert abs(w / h - w1 / h1) < 0.05, (during, boxes[-1])
    angles = page.eval_on_selector_all(
        "#board .piece.arrived", "els => els.map(e => e.dataset.angle).sort()"
    )
    assert angles == ["/", "\\"], angles  # the check measured the rotated pieces
    ctx.close()


def test_every_games_pieces_lie_on_their_cells_as_the_last_move_arrives(browser):
    """The same measure on a board of each other game, its last cells marked."""
    for name, plays in (("kuniumi", 12), ("hexagone", 6), ("comino", 30)):
        game = games.get(name)
        state = game.new_state(seed=3)
        for _ in range(plays):
            if state.is_over:
                break
            move = state.chance_outcomes()[0][0] if state.to_move < 0 else state.legal_moves()[0]
            state.play(move)
        svg = game_svg(name, state)
        ctx, page = board_page(browser, svg, svg_cells(svg)[:2])
        for moment in (0.0, None):
            at_animation_time(page, moment)
            assert pieces_off_cells(page) == [], (name, moment)
        ctx.close()


def game_svg(name: str, state) -> str:
    from importlib import import_module

    return import_module(f"ludoteca.games.{name}.render").render_svg(state)


def svg_cells(svg: str) -> list[str]:
    import re

    return re.findall(r'class="piece[^"]*" data-cell="([^"]+)"', svg)


def test_kuniumis_gods_letter_stays_readable_on_the_last_move_and_when_selected(browser):
    """The last move's dashes and the selection's thick outline were drawn over the god's
    ``E``/``S`` letter (the styles reached every child of the marked group, text too)."""
    from ludoteca.games.kuniumi.render import render_svg

    game = games.get("kuniumi")
    state = game.new_state(seed=1)
    state.play(state.str_to_move("E@c3"))
    ctx, page = board_page(browser, render_svg(state), ["c3"])
    at_animation_time(page, None)
    page.evaluate("() => document.querySelector('#board .piece.god').classList.add('selected')")
    strokes = page.eval_on_selector_all(
        "#board .piece.god text",
        "els => els.map(e => [getComputedStyle(e).strokeWidth, getComputedStyle(e).stroke])",
    )
    assert strokes, "the god's letter is drawn"
    for width, stroke in strokes:
        assert stroke == "none" or float(width.removesuffix("px")) == 0, (width, stroke)
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_hexagones_side_text_is_not_clipped_in_any_language(browser, lang):
    """The panel beside the block ("swap two pieces (see the dice)") ran past the drawing's
    right edge and was cut, in every language."""
    from ludoteca.games.hexagone.render import render_svg
    from ludoteca.games.hexagone.state import SWAP_PHASE
    from ludoteca.web.i18n.catalogs import language

    game = games.get("hexagone")
    state = game.new_state(seed=5)
    while state.phase != SWAP_PHASE:
        state.play(state.chance_outcomes()[0][0] if state.to_move < 0 else state.legal_moves()[0])
    ctx, page = board_page(browser, render_svg(state, translate=language(lang).text), [])
    assert clipped_text(page) == []
    ctx.close()
