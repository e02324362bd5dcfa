// The board of a solo page (a lesson, a puzzle, the daily challenge): it draws the position the
// server sent, mounts the game's own interaction, marks the cells a click may add to the move
// and offers the moves that need no cell as buttons. The legal moves come from the server; no
// rule lives here. Each page says what a finished move and a refused click do.
import { movePaths, sameCells } from "./moves.js";
import { interactionFor } from "./interactions.js";
import { fingerFit } from "./finger_fit.js";

export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

// POSTs a JSON body with the page's csrf token; on a refusal it says the server's error and
// gives null, so every page answers a refused request the same way.
export async function postJson(url, body, csrf, refused) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, csrf }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { refused(data.error); return null; }
  return data;
}

// On a phone a board drawn larger than its box pans, and keeps where it was panned to; but a
// new drawing is scaled anew (Comino's table grows with each tile), so the move just made may
// come out beyond the box's edge. The box is panned, on that axis only, to bring it back.
function keepInView(nodes, boardBox) {
  if (!boardBox.classList.contains("zoomed") || !nodes.length) return;
  const box = boardBox.getBoundingClientRect();
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of nodes) {
    const r = n.getBoundingClientRect();
    x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top);
    x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
  }
  if (x0 < box.left || x1 > box.right) boardBox.scrollLeft += (x0 + x1) / 2 - (box.left + box.width / 2);
  if (y0 < box.top || y1 > box.bottom) boardBox.scrollTop += (y0 + y1) / 2 - (box.top + box.height / 2);
}

// options: boardBox, choices, controls (elements); sendMove(text); showMessage(text) for the
// interaction; redraw() draws the current view again; open(view) says whether clicks count;
// miss(cells, cell) answers a cell no legal move takes (an array is the new selection, anything
// else ends the click); progress() runs when a cell was added without finishing a move;
// completeOnDeselect lets a removed cell finish a move too.
export function boardPage(options) {
  const { boardBox, choices, controls, sendMove, showMessage } = options;
  // pool: the legal moves the clicks choose among. A position of very many moves (Comune's
  // thousands of turns) comes compact: the moves naming no cell, and the cells a first click
  // may take (view.targets); that cell's moves are then asked of the server, as on the
  // analysis board.
  const state = { view: null, selected: [], interaction: null, pool: [], narrowedTo: null };
  const fit = fingerFit(boardBox); // on a phone, cells a finger can take, as on the game page

  async function narrowTo(cell) {
    const { view } = state;
    if (!view.legal_partial || cell === state.narrowedTo) return true;
    if (!cell) { state.pool = view.legal; state.narrowedTo = null; return true; }
    const q = new URLSearchParams({ position: view.position, cell });
    if (view.options && view.options.players) q.set("players", view.options.players);
    const r = await fetch(`/api/analysis/${view.game}/moves?${q}`).catch(() => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) { if (showMessage) showMessage(data.error || ""); return false; }
    if (state.view !== view) return false; // a new position came meanwhile
    state.pool = [...view.legal, ...(data.moves || [])];
    state.narrowedTo = cell;
    return true;
  }

  function mark() {
    const { view, selected, pool } = state;
    const cands = pool.filter((m) => selected.every((c) => m.cells.includes(c)));
    const targets = new Set();
    if (view.legal_partial && !selected.length) for (const c of view.targets || []) targets.add(c);
    else for (const m of cands) for (const c of m.cells) if (!selected.includes(c)) targets.add(c);
    for (const node of boardBox.querySelectorAll("[data-cell]")) {
      node.classList.toggle("target", targets.has(node.dataset.cell) && node.classList.contains("cell"));
      node.classList.toggle("selected", selected.includes(node.dataset.cell));
    }
    choices.replaceChildren();
    const offer = selected.length && !state.interaction ? cands.filter((m) => sameCells(m.cells, selected)) : view.legal.filter((m) => !m.cells.length);
    for (const m of offer.slice(0, 40)) {
      const b = el("button", { type: "button", class: "move-choice", "data-move": m.text }, m.label || m.text);
      b.addEventListener("click", () => sendMove(m.text));
      choices.append(b);
    }
  }

  // Draws `view`; a view that is not playable (the answer after the end) takes no clicks.
  // `turn` is the interaction's your_turn; `before` runs just before the interaction mounts.
  function show(view, { playable = true, lastCells = true, turn = view.legal.length > 0, before = null } = {}) {
    state.view = view;
    state.selected = [];
    state.pool = view.legal;
    state.narrowedTo = null;
    const panned = [boardBox.scrollLeft, boardBox.scrollTop];
    boardBox.innerHTML = view.svg;
    fit(panned);
    for (const cell of (lastCells && view.last_cells) || []) {
      for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move");
    }
    keepInView(boardBox.querySelectorAll(".cell.last-move"), boardBox);
    if (state.interaction && state.interaction.destroy) state.interaction.destroy();
    state.interaction = null;
    controls.replaceChildren();
    if (playable) {
      if (before) before();
      state.interaction = interactionFor({ ...view, your_turn: turn }, { boardBox, controls, sendMove, showMessage, el, paths: movePaths(view.legal) }, options.redraw);
    } else {
      state.view = { ...view, legal: [], legal_partial: false };
      state.pool = [];
    }
    mark();
  }

  function clear() {
    state.selected = [];
    mark();
  }

  boardBox.addEventListener("click", async (e) => {
    const { view, interaction } = state;
    if (!view || !options.open(view)) return;
    if (interaction && interaction.click && view.legal.length && interaction.click(e)) return;
    const node = e.target.closest("[data-cell]");
    if (!node) return;
    const cell = node.dataset.cell;
    // a first cell of a compact position: its moves are asked for before it is judged
    const first = view.legal_partial && (!state.selected.length || !state.pool.some((m) => m.cells.includes(cell) && state.selected.every((s) => m.cells.includes(s))));
    if (first && (view.targets || []).includes(cell)) {
      if (!(await narrowTo(cell)) || state.view !== view) return;
      state.selected = [];
    }
    const fits = (c) => state.pool.some((m) => m.cells.includes(c) && state.selected.every((s) => m.cells.includes(s)));
    if (state.selected.includes(cell)) {
      state.selected = state.selected.filter((c) => c !== cell);
      if (!options.completeOnDeselect) { mark(); return; }
    } else if (fits(cell)) {
      state.selected.push(cell);
    } else {
      const kept = options.miss([...state.selected, cell], cell);
      if (!Array.isArray(kept)) return;
      state.selected = kept;
    }
    if (!state.selected.length && view.legal_partial) await narrowTo(null);
    const cands = state.pool.filter((m) => state.selected.every((c) => m.cells.includes(c)));
    const complete = cands.filter((m) => sameCells(m.cells, state.selected));
    if (complete.length === 1 && cands.length === 1) { sendMove(complete[0].text); return; }
    if (options.progress) options.progress();
    mark();
  });

  return { state, show, clear };
}
