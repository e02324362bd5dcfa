"""Hexagone's empty slots take a click anywhere inside them, not only on their outline.

During a reform the player fills empty slots; with ``fill="none"`` a slot let clicks through
its inside, so only the 1-px dashed outline answered. Checked in a real browser on the
engine's own SVG: the point at the middle of every empty slot belongs to that slot's cell.
"""

from __future__ import annotations

import random

from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.core.table import sample_chance
from ludoteca.games.hexagone.render import render_svg


def a_position_with_empty_slots():
    for seed in range(200):
        rng = random.Random(seed)
        state = get("hexagone", players=2).new_state(seed=seed)
        while not state.is_over:
            svg = render_svg(state)
            if 'class="slot"' in svg:
                return svg
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
            else:
                state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no random game showed an empty slot")


def test_a_click_inside_an_empty_slot_reaches_its_cell(browser):
    svg = a_position_with_empty_slots()
    page = browser.new_page()
    try:
        page.set_content(f"<!doctype html><body style='margin:0'><div id=board>{svg}</div>")
        misses = page.evaluate(
            """() => {
              const out = [];
              const slots = document.querySelectorAll('#board .slot');
              for (const slot of slots) {
                slot.scrollIntoView({block: 'center', inline: 'center'});
                const box = slot.getBoundingClientRect();
                const x = box.x + box.width / 2, y = box.y + box.height / 2;
                const hit = document.elementFromPoint(x, y);
                const mine = slot.closest('[data-cell]');
                if (!hit || hit.closest('[data-cell]') !== mine) out.push(mine.dataset.cell);
              }
              return [slots.length, out];
            }"""
        )
    finally:
        page.close()
    count, missed = misses
    assert count > 0
    assert missed == [], f"clicks inside these slots reach no cell: {missed}"
