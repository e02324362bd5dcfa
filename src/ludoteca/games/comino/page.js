// Comino's page module (served to the game page by the club, see the game's ui_hints), as on
// the seed site: turn a rack tile by clicking its top-left corner (anti-clockwise) or
// top-right corner (clockwise); pick it up by its lower half and drop it on a highlighted
// square, by a click or by dragging; "Remove tile" when the server lists that removal;
// rearrange a rack by picking a tile up and clicking another tile of the same rack.
// Nothing here knows a rule or the notation: a tile's orientations, in clockwise order with
// their corner colours, come from the hints (view.hints.turns); what fits where comes from
// the structured legal moves ({text, cells, tile, orientation, remove}).
import { t } from "/static/i18n.js";

const turned = new Map(); // tile name -> index into its orientations (kept across updates)
const rackOrder = new Map(); // player -> tile names in the order the player arranged them
const COLOURS = {}; // corner colour letter -> fill, learned from the engine's own SVG
const DRAG_START = 6; // pixels a press must travel before it is a drag

function corners(g) {
  return Array.from(g.querySelectorAll("rect.corner")).slice(0, 4);
}

function outline(g) {
  const rects = g.querySelectorAll("rect");
  return rects[rects.length - 1];
}

// The seed's three arrows, shown while the mouse is over a rack tile (CSS, on devices that
// hover): the top-left corner turns it anti-clockwise, the top-right clockwise, the lower
// half moves it. Drawn as SVG paths in the tile's own coordinates.
const SVG_NS = "http://www.w3.org/2000/svg";
function arrows(g) {
  if (g.querySelector(".hover-arrows")) return;
  const box = outline(g);
  const x = Number(box.getAttribute("x")), y = Number(box.getAttribute("y"));
  const w = Number(box.getAttribute("width")), h = Number(box.getAttribute("height"));
  const r = w * 0.13;
  const turnPath = (cx, cy, sweep) => {
    const from = sweep ? cx - r : cx + r;
    const tip = sweep ? -0.5 : 0.5; // the head points the way the arc goes at the bottom
    return `M ${from} ${cy} A ${r} ${r} 0 1 ${sweep} ${cx} ${cy + r} `
      + `M ${cx + tip * r} ${cy + r} L ${cx - tip * 0.2 * r} ${cy + 0.55 * r} M ${cx + tip * r} ${cy + r} `
      + `L ${cx - tip * 0.2 * r} ${cy + 1.45 * r}`;
  };
  const mx = x + w / 2, my = y + (3 * h) / 4, a = r * 0.35;
  const move = `M ${mx - r} ${my} L ${mx + r} ${my} M ${mx} ${my - r} L ${mx} ${my + r} `
    + `M ${mx - r + a} ${my - a} L ${mx - r} ${my} L ${mx - r + a} ${my + a} `
    + `M ${mx + r - a} ${my - a} L ${mx + r} ${my} L ${mx + r - a} ${my + a} `
    + `M ${mx - a} ${my - r + a} L ${mx} ${my - r} L ${mx + a} ${my - r + a} `
    + `M ${mx - a} ${my + r - a} L ${mx} ${my + r} L ${mx + a} ${my + r - a}`;
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "hover-arrows");
  group.setAttribute("pointer-events", "none");
  group.setAttribute("aria-hidden", "true");
  for (const [name, d] of [
    ["anticlockwise", turnPath(x + w / 4, y + h / 4 - r / 2, 0)],
    ["clockwise", turnPath(x + (3 * w) / 4, y + h / 4 - r / 2, 1)],
    ["move", move],
  ]) {
    for (const [colour, width] of [["#fff", r * 0.55], ["#111", r * 0.25]]) {
      const path = document.createElementNS(SVG_NS, "path");
      path.setAttribute("d", d);
      path.setAttribute("class", `arrow ${name}`);
      path.setAttribute("fill", "none");
      path.setAttribute("stroke", colour);
      path.setAttribute("stroke-width", String(width));
      path.setAttribute("stroke-linecap", "round");
      group.append(path);
    }
  }
  g.append(group);
}

export default function comino(view, ctx) {
  const { boardBox, controls, sendMove, showMessage, el } = ctx;
  const svg = boardBox.querySelector("svg");
  if (!svg) return null;
  for (const r of svg.querySelectorAll("rect.corner")) {
    const c = r.dataset.colour || (r.getAttribute("class").match(/corner-(\S+)/) || [])[1];
    if (c && !COLOURS[c]) COLOURS[c] = r.getAttribute("fill");
  }
  const turns = (view.hints && view.hints.turns) || {};
  const myPlayer = String(view.to_move + 1);
  let picked = null;
  let press = null; // {g, x, y, dragging} while a rack tile is held down
  const removeButton = el("button", { type: "button", id: "remove-tile", hidden: "" }, t("Remove tile"));
  // When no tile of the player to move fits anywhere, every legal move is a removal: the
  // button stays in sight from the start (the prompt says to pick a tile and press it).
  const onlyRemovals = view.your_turn && view.legal.length > 0 && view.legal.every((m) => m.remove);
  // A picked-up tile can also be turned with buttons: finger-sized on a touch screen, where
  // a tap anywhere on a tile picks it up (its corners are too small to aim at), and usable
  // from the keyboard.
  const turnLeft = el("button", { type: "button", id: "turn-left", hidden: "" }, t("Turn anticlockwise"));
  const turnRight = el("button", { type: "button", id: "turn-right", hidden: "" }, t("Turn clockwise"));
  // The buttons a picked-up tile needs, in a bar that stays at the window's foot while the
  // board is in the window (see the CSS): under a tall board they would be out of sight.
  // When only removals are left, the prompt that says so travels in the bar with its button.
  const bar = el("div", { class: "tile-actions", hidden: "" });
  if (onlyRemovals) {
    const hint = controls.querySelector(".hint");
    if (hint) bar.append(hint);
  }
  bar.append(turnLeft, turnRight, removeButton);
  controls.after(bar);
  turnLeft.addEventListener("click", () => { if (picked) { turn(picked, -1); mark(); } });
  turnRight.addEventListener("click", () => { if (picked) { turn(picked, 1); mark(); } });

  const tiles = Array.from(svg.querySelectorAll("g.rack-tile"));
  for (const g of tiles) paint(g, turned.get(g.dataset.tile) || 0);
  for (const g of tiles) arrows(g);
  arrange(svg);

  function shown(g) {
    const list = turns[g.dataset.tile] || [];
    return list[(turned.get(g.dataset.tile) || 0) % (list.length || 1)];
  }

  function paint(g, index) {
    const list = turns[g.dataset.tile];
    if (!list || !list.length) return;
    const t = list[((index % list.length) + list.length) % list.length];
    corners(g).forEach((rect, i) => {
      const colour = t.corners[i];
      if (COLOURS[colour]) rect.setAttribute("fill", COLOURS[colour]);
      rect.setAttribute("class", `corner corner-${colour}`);
    });
    g.dataset.orientation = t.orientation;
  }

  function turn(g, step) {
    const list = turns[g.dataset.tile] || [];
    if (!list.length) return;
    const index = ((turned.get(g.dataset.tile) || 0) + step + list.length) % list.length;
    turned.set(g.dataset.tile, index);
    paint(g, index);
  }

  function placements() {
    if (!picked) return [];
    const now = shown(picked);
    return view.legal.filter(
      (m) => m.tile === picked.dataset.tile && now && m.orientation === now.orientation && m.cells.length,
    );
  }

  function removal() {
    return picked ? view.legal.find((m) => m.remove && m.tile === picked.dataset.tile) : null;
  }

  function mark() {
    const targets = new Set(placements().map((m) => m.cells[0]));
    for (const node of svg.querySelectorAll("[data-cell].cell")) {
      node.classList.toggle("target", picked !== null && targets.has(node.dataset.cell));
    }
    for (const g of tiles) g.classList.toggle("selected", g === picked);
    removeButton.hidden = !(removal() || onlyRemovals);
    removeButton.disabled = !removal();
    const mine = picked !== null && picked.dataset.player === myPlayer && view.your_turn;
    turnLeft.hidden = turnRight.hidden = !mine;
    bar.hidden = turnLeft.hidden && removeButton.hidden;
    if (mine) inView(removeButton.hidden ? turnRight : removeButton);
  }

  // A button the player is to press next is brought into the window if it is out of it.
  function inView(button) {
    const box = button.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) button.scrollIntoView({ block: "nearest" });
  }

  removeButton.addEventListener("click", () => {
    const m = removal();
    if (m) sendMove(m.text);
  });

  function dropOn(cellNode) {
    if (!picked || picked.dataset.player !== myPlayer) return false;
    const m = placements().find((p) => p.cells[0] === cellNode.dataset.cell);
    if (m) {
      turned.delete(picked.dataset.tile);
      sendMove(m.text);
    } else {
      showMessage(shown(picked)
        ? t("This tile does not fit there in this orientation; turn it or pick another square.")
        : t("It does not fit there in this orientation; turn it or pick another square."));
    }
    return true;
  }

  function where(g, event) {
    const box = outline(g).getBoundingClientRect();
    return { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height };
  }

  function click(event) {
    if (press && press.dragged) { press = null; return true; } // the drag already acted
    const g = event.target.closest("g.rack-tile");
    if (g) {
      const { x, y } = where(g, event);
      if (y < 0.5 && event.pointerType !== "touch") {
        turn(g, x < 0.5 ? -1 : 1);
      } else if (picked && picked !== g && picked.dataset.player === g.dataset.player) {
        swapInRack(svg, picked, g);
        picked = null;
      } else if (picked === g) {
        picked = null;
      } else {
        picked = g; // the other rack's tiles can only be rearranged
      }
      mark();
      return true;
    }
    const cell = event.target.closest("[data-cell]");
    if (cell && picked) return dropOn(cell);
    return Boolean(cell);
  }

  // Dragging: press on a tile's lower half, move, release over a square. The press picks
  // the tile up as a click would; the release drops it where the pointer is.
  function down(event) {
    const g = event.target.closest("g.rack-tile");
    if (!g || event.button !== 0) return;
    if (event.pointerType !== "touch" && where(g, event).y < 0.5) return; // a corner: a turn
    event.preventDefault(); // no text selection while dragging
    press = { g, x: event.clientX, y: event.clientY, dragged: false };
  }

  function move(event) {
    if (!press) return;
    if (!press.dragged && Math.hypot(event.clientX - press.x, event.clientY - press.y) >= DRAG_START) {
      press.dragged = true;
      picked = press.g;
      showMessage(""); // what the last drop said is about another drag
      press.ghost = ghostOf(press.g);
      mark();
    }
    if (press.ghost) follow(press.ghost, event);
  }

  function up(event) {
    if (!press || !press.dragged) { press = null; return; }
    if (press.ghost) press.ghost.remove();
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const cell = target && target.closest("#board [data-cell].cell");
    if (cell) dropOn(cell);
    // A drag ends with the tile put down, placed or not: the next click starts afresh (a
    // click on one tile, then another, swaps them).
    picked = null;
    mark();
    // the click that follows a drag's release is swallowed by click() above
    setTimeout(() => { press = null; }, 0);
  }

  // The tile under the pointer while it is dragged: a copy of its drawing, as large as a
  // square of the board, that the pointer carries (and that never takes the pointer's events).
  function ghostOf(g) {
    const box = outline(g);
    const x = Number(box.getAttribute("x")), y = Number(box.getAttribute("y"));
    const w = Number(box.getAttribute("width")), h = Number(box.getAttribute("height"));
    const square = svg.querySelector("rect.cell");
    const size = square ? square.getBoundingClientRect().width : outline(g).getBoundingClientRect().width;
    const ghost = document.createElementNS(SVG_NS, "svg");
    ghost.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    ghost.setAttribute("class", "drag-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = ghost.style.height = `${Math.max(size, 24)}px`;
    for (const rect of g.querySelectorAll(":scope > rect")) ghost.append(rect.cloneNode(false));
    document.body.append(ghost);
    return ghost;
  }

  function follow(ghost, event) {
    const half = ghost.getBoundingClientRect().width / 2;
    ghost.style.left = `${event.clientX - half}px`;
    ghost.style.top = `${event.clientY - half}px`;
  }

  svg.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  queueMicrotask(mark); // the generic highlight marks every square some tile fits
  return {
    click,
    destroy() {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (press && press.ghost) press.ghost.remove();
      bar.remove();
    },
  };
}

function slots(svg, player) {
  return Array.from(svg.querySelectorAll(`g.rack-tile[data-player="${player}"]`));
}

function baseX(g) {
  if (g.dataset.baseX === undefined) g.dataset.baseX = outline(g).getAttribute("x");
  return Number(g.dataset.baseX);
}

function arrange(svg) {
  const ordered = new Map(); // player -> that rack's tiles in the player's order
  for (const player of new Set(Array.from(svg.querySelectorAll("g.rack-tile"), (g) => g.dataset.player))) {
    const gs = slots(svg, player);
    const order = rackOrder.get(player) || [];
    const known = order.filter((n) => gs.some((g) => g.dataset.tile === n));
    const rest = gs.slice().sort((a, b) => baseX(a) - baseX(b)).map((g) => g.dataset.tile)
      .filter((n) => !known.includes(n));
    ordered.set(player, [...known, ...rest].map((name) => gs.find((t) => t.dataset.tile === name)));
    ordered.get(player).forEach((g, i) => { g.dataset.order = String(i); });
  }
  if (enlarge(svg, ordered)) return;
  for (const gs of ordered.values()) {
    const xs = gs.map(baseX).sort((a, b) => a - b);
    gs.forEach((g, i) => {
      g.setAttribute("transform", `translate(${xs[i] - baseX(g)} 0)`);
    });
  }
}

// On a narrow screen the racks drawn in one row make each tile some 22 px wide, its corners
// 11 px: too small to touch. Then the racks are laid out again below the board, in rows of
// tiles at least MIN_TILE_PX wide on screen (the drawing grows downwards to hold them).
const MIN_TILE_PX = 52;
const MAX_SCALE = 1.6; // a few squares at the start are drawn no larger than 64 px
function enlarge(svg, ordered) {
  const first = svg.querySelector("g.rack-tile");
  const width = svg.getBoundingClientRect().width;
  if (!first || !width) return false;
  const vb = svg.viewBox.baseVal;
  const size = Number(outline(first).getAttribute("width"));
  if (!svg.dataset.enlarged && size * (width / vb.width) >= 44) return false;
  svg.style.maxHeight = "none"; // a taller drawing keeps the full width
  // The drawing is as wide as the racks drawn in one row; laid out again in rows, they no
  // longer need that width, and the board alone fills it: its squares as large as they go.
  const right = Math.max(...Array.from(svg.querySelectorAll("rect.cell"),
    (r) => Number(r.getAttribute("x")) + Number(r.getAttribute("width"))));
  const narrow = Math.max(right + 8, width / MAX_SCALE);
  if (Number.isFinite(narrow) && narrow < vb.width) {
    svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${narrow} ${vb.height}`);
  }
  const scale = width / vb.width; // screen pixels per drawing unit
  const big = MIN_TILE_PX / scale;
  const gap = big * 0.12;
  const perRow = Math.max(1, Math.floor((vb.width - gap) / (big + gap)));
  const tiles = Array.from(svg.querySelectorAll("g.rack-tile"));
  let y = Math.min(...tiles.map((g) => Number(outline(g).getAttribute("y")))) - 4;
  const players = [...ordered.keys()].sort();
  for (const player of players) {
    const label = svg.querySelector(`g.rack[data-player="${player}"] > text`);
    const font = 14 / scale;
    if (label) {
      label.setAttribute("x", "4");
      label.setAttribute("y", String(y + font));
      label.setAttribute("font-size", String(font));
    }
    y += font * 1.4;
    ordered.get(player).forEach((g, i) => {
      const box = outline(g);
      const x0 = Number(box.getAttribute("x")), y0 = Number(box.getAttribute("y"));
      const tx = gap + (i % perRow) * (big + gap);
      const ty = y + Math.floor(i / perRow) * (big + gap);
      g.setAttribute("transform", `translate(${tx} ${ty}) scale(${big / size}) translate(${-x0} ${-y0})`);
    });
    y += Math.ceil(ordered.get(player).length / perRow) * (big + gap) + gap;
  }
  const height = Math.max(vb.height, y - vb.y);
  const ground = svg.querySelector(":scope > rect");
  if (ground && Number(ground.getAttribute("height")) >= vb.height - 1) ground.setAttribute("height", String(height));
  svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.width} ${height}`);
  svg.dataset.enlarged = "1";
  return true;
}

function swapInRack(svg, a, b) {
  const player = a.dataset.player;
  const gs = slots(svg, player);
  const order = gs.slice().sort((x, y) => Number(x.dataset.order) - Number(y.dataset.order))
    .map((g) => g.dataset.tile);
  const i = order.indexOf(a.dataset.tile), j = order.indexOf(b.dataset.tile);
  [order[i], order[j]] = [order[j], order[i]];
  rackOrder.set(player, order);
  arrange(svg);
}
