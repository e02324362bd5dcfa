"""Checks of what a page DRAWS, as a person looks at it, in a real Chromium: boxes measured
with ``getBoundingClientRect`` after layout, transforms and animations, not the DOM's claims.

Each check is a small script run in the page that returns the offences it finds (an empty
list when all is well), so a test can assert on it and print what was wrong. None of them
knows a game: the board contract (``data-cell`` on every cell and on every drawn piece,
``class="cell"`` on the cells) is all the geometry check needs.

- :data:`PIECES_OFF_CELLS`: every drawn element that names a cell lies inside that cell.
- :data:`CONTROLS_OUT_OF_VIEW`: the controls the page asks the player to use now (the
  choices of a half-made move, the game's own buttons) are inside the viewport.
- :data:`CLIPPED_TEXT`: SVG text lies inside its drawing; HTML text inside its box and the
  viewport's width (text in a box that scrolls sideways, or meant for screen readers only,
  is not cut).
- :data:`SMALL_TOUCH_TARGETS`: what a finger presses is at least 44 px both ways.
- :data:`CROWDED_CONTROLS`: no two controls drawn as boxes touch or overlap.
- :data:`WORDS_CUT`: no word of a table is broken across two lines.
- :data:`PANEL_OUT_OF_VIEW`: a board's side panel (``g.panel``: Hexagone's turn, dice and
  piles) lies inside the part of its box (``.board-box``) that shows, also when the board
  is drawn larger than the box and pans inside it (a finger-sized board on a phone).
"""

from __future__ import annotations

TOLERANCE = 1.5
"""Pixels a drawn box may pass its cell's edge by (rounding of scaled SVG coordinates)."""

PIECES_OFF_CELLS = """(tolerance) => {
  const out = [];
  const svg = document.querySelector('#board svg.board') || document.querySelector('svg.board');
  if (!svg) return out;
  const cells = new Map();
  for (const c of svg.querySelectorAll('.cell[data-cell]')) cells.set(c.dataset.cell, c);
  for (const node of svg.querySelectorAll('[data-cell]:not(.cell)')) {
    const cell = cells.get(node.dataset.cell);
    if (!cell) {
      out.push({cell: node.dataset.cell, what: node.getAttribute('class'), why: 'no such cell'});
      continue;
    }
    const a = node.getBoundingClientRect(), b = cell.getBoundingClientRect();
    if (a.width === 0 && a.height === 0) continue;  // nothing drawn (an empty group)
    const off = Math.max(b.left - a.left, b.top - a.top, a.right - b.right, a.bottom - b.bottom);
    const style = getComputedStyle(node);
    const hidden = style.visibility === 'hidden' || style.display === 'none';
    if (off > tolerance && !hidden) {
      const r = (x) => Math.round(x);
      out.push({cell: node.dataset.cell, what: node.getAttribute('class'), off: r(off),
                drawn: [r(a.left), r(a.top), r(a.right), r(a.bottom)],
                cellBox: [r(b.left), r(b.top), r(b.right), r(b.bottom)]});
    }
  }
  return out;
}"""

CONTROLS_OUT_OF_VIEW = """(selector) => {
  const out = [];
  const w = innerWidth, h = innerHeight;
  for (const node of document.querySelectorAll(selector)) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not shown
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > h + 0.5 || r.right > w + 0.5)
      out.push({control: (node.textContent || node.id || node.className).trim().slice(0, 40),
                box: [r.left, r.top, r.right, r.bottom].map(Math.round), viewport: [w, h]});
  }
  return out;
}"""

ASKED_CONTROLS = (
    "#picker > .choices .move-choice, #picker > .choices button, #controls button:not([hidden]),"
    " #offer-asks button"
)
"""What the game page asks the player to use now: the choices a half-made move left, the
moves that name no cell (roll, stop, pass), and the game's own buttons (Remove tile, turn)."""

CLIPPED_TEXT = """(scope) => {
  const out = [];
  const r = (x) => Math.round(x);
  // SVG text inside the drawing it belongs to (the outermost svg clips at its viewport).
  for (const text of document.querySelectorAll(scope + ' svg text')) {
    let svg = text.ownerSVGElement;
    while (svg && svg.ownerSVGElement) svg = svg.ownerSVGElement;
    if (!svg || !text.textContent.trim()) continue;
    const t = text.getBoundingClientRect(), s = svg.getBoundingClientRect();
    if (!t.width || !s.width) continue;
    if (t.left < s.left - 1 || t.right > s.right + 1
        || t.top < s.top - 1 || t.bottom > s.bottom + 1)
      out.push({svgText: text.textContent.trim().slice(0, 60), text: [r(t.left), r(t.right)],
                drawing: [r(s.left), r(s.right)]});
  }
  // HTML text inside its box when the box hides what overflows, and inside the page's width.
  const walker = document.createTreeWalker(document.querySelector(scope) || document.body,
                                           NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    // Text for screen readers only (the usual 1-pixel clipped box) is not drawn.
    const skip = 'svg, script, style, [hidden], details:not([open]) > :not(summary),'
      + ' .visually-hidden';
    if (!n.textContent.trim() || n.parentElement.closest(skip)) continue;
    range.selectNodeContents(n);
    const t = range.getBoundingClientRect();
    if (!t.width) continue;
    // A box that scrolls sideways (a wide table's wrap) shows the rest when swiped.
    let scrolls = false;
    for (let box = n.parentElement; box && box !== document.body; box = box.parentElement) {
      const x = getComputedStyle(box).overflowX;
      if (x === 'auto' || x === 'scroll') { scrolls = true; break; }
    }
    if (scrolls) continue;
    if (t.right > document.documentElement.clientWidth + 1 || t.left < -1) {
      out.push({htmlText: n.textContent.trim().slice(0, 60), past: 'the page',
                box: [r(t.left), r(t.right)]});
      continue;
    }
    for (let box = n.parentElement; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') break;  // it scrolls
      const b = box.getBoundingClientRect();
      if (t.left < b.left - 1 || t.right > b.right + 1)
        out.push({htmlText: n.textContent.trim().slice(0, 60),
                  past: box.tagName + '.' + box.className,
                  box: [r(t.left), r(t.right)], clip: [r(b.left), r(b.right)]});
      break;
    }
  }
  return out;
}"""

SMALL_TOUCH_TARGETS = """([selector, least]) => {
  const out = [];
  for (const found of document.querySelectorAll(selector)) {
    if (found.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    // A checkbox is pressed anywhere on its label.
    const node = found.matches('input') && found.closest('label') || found;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    // A link inside a sentence is as wide as its words (WCAG's exception for inline
    // targets); it must still be a finger high.
    const words = node.tagName === 'A' && style.display === 'inline'
      && node.parentElement.textContent.trim().length > node.textContent.trim().length + 20;
    if (r.height + 0.5 >= least && (r.width + 0.5 >= least || words)) continue;
    const name = node.dataset.cell || node.dataset.tile || node.textContent || node.tagName;
    out.push({target: name.trim().slice(0, 30), size: [Math.round(r.width), Math.round(r.height)]});
  }
  return out;
}"""

WORDS_CUT = """(scope) => {
  // A word of a table cell broken across lines ("Schwei-zer Syste-m"); Latin letters only,
  // since Japanese breaks between any two characters by its own rules.
  const out = [];
  const range = document.createRange();
  for (const cell of document.querySelectorAll(`${scope} td, ${scope} th`)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/[A-Za-zÀ-ÿ]{2,}/g)) {
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width)
                                                         .map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""
"""Words of table cells cut in two by a line break (a table scrolls sideways instead)."""

CROWDED_CONTROLS = """([scope, gap]) => {
  const out = [];
  const boxes = [];
  for (const node of document.querySelectorAll(
      `${scope} button, ${scope} input:not([type=hidden]), ${scope} select, ${scope} textarea`)) {
    if (node.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    const r = node.getBoundingClientRect();
    if (r.width && r.height) boxes.push([node, r]);
  }
  const name = (n) => (n.id || n.textContent || n.name || n.tagName).trim().slice(0, 30);
  // Drawn as a box (a border or a background): buttons styled as links may stand in a list.
  const boxed = (n) => {
    const s = getComputedStyle(n);
    return parseFloat(s.borderTopWidth) > 0 || s.backgroundColor !== 'rgba(0, 0, 0, 0)';
  };
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (boxed(a) && boxed(b) && p.left < q.right + gap && q.left < p.right + gap
          && p.top < q.bottom + gap && q.top < p.bottom + gap)
        out.push({controls: [name(a), name(b)],
                  boxes: [p, q].map(r => [r.left, r.top, r.right, r.bottom].map(Math.round))});
    }
  return out;
}"""
"""Controls drawn as boxes (buttons, fields, menus) closer than ``gap`` pixels to each other
or overlapping: run together, a finger or the eye cannot tell which is which."""

PANEL_OUT_OF_VIEW = """([scope, tolerance]) => {
  const out = [];
  const r = (x) => Math.round(x);
  for (const node of document.querySelectorAll(
      `${scope} g.panel text, ${scope} g.panel rect, ${scope} g.panel circle`)) {
    const board = node.closest('.board-box');
    if (!board) continue;
    // What its box shows: the client area (a box that pans shows that part of its drawing).
    const b = board.getBoundingClientRect();
    const left = b.left + board.clientLeft, top = b.top + board.clientTop;
    const right = left + board.clientWidth, bottom = top + board.clientHeight;
    const t = node.getBoundingClientRect();
    if (!t.width || !t.height) continue;
    if (t.left < left - tolerance || t.right > right + tolerance
        || t.top < top - tolerance || t.bottom > bottom + tolerance)
      out.push({what: (node.textContent.trim() || node.getAttribute('class') || node.tagName)
                  .slice(0, 40),
                drawn: [r(t.left), r(t.top), r(t.right), r(t.bottom)],
                shown: [r(left), r(top), r(right), r(bottom)]});
  }
  return out;
}"""
"""The parts of a board's side panel (its text, dice and tokens) outside what the box shows."""

TOUCH_TARGETS = (
    "main button, main a[href], main select, main summary, main input[type=checkbox],"
    " header a, header button, #board .cell.target, #board .cell[tabindex],"
    " #board g.rack-tile"
)
"""What a finger presses on a page: buttons, links, menus, and on a game page the cells it
may play and the rack's tiles."""


def pieces_off_cells(page) -> list[dict]:
    return page.evaluate(PIECES_OFF_CELLS, TOLERANCE)


def controls_out_of_view(page, selector: str = ASKED_CONTROLS) -> list[dict]:
    return page.evaluate(CONTROLS_OUT_OF_VIEW, selector)


def clipped_text(page, scope: str = "main") -> list[dict]:
    return page.evaluate(CLIPPED_TEXT, scope)


def words_cut(page, scope: str = "main") -> list[str]:
    return page.evaluate(WORDS_CUT, scope)


def crowded_controls(page, scope: str = "main", gap: float = 2) -> list[dict]:
    return page.evaluate(CROWDED_CONTROLS, [scope, gap])


def small_touch_targets(page, selector: str = TOUCH_TARGETS, least: float = 44) -> list[dict]:
    return page.evaluate(SMALL_TOUCH_TARGETS, [selector, least])


def panel_out_of_view(page, scope: str = "main") -> list[dict]:
    return page.evaluate(PANEL_OUT_OF_VIEW, [scope, TOLERANCE])
