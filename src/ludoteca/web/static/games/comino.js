// Comino, as on the seed site: rotate a rack tile by clicking its top-left corner
// (anti-clockwise) or top-right corner (clockwise), pick it up by its lower half, drop it on
// a highlighted square (highlighted only where the server's legal moves place it in that
// orientation), "Remove tile" when the server lists that removal, and rearrange a rack by
// picking a tile up and clicking another tile of the same rack.
// Turning a tile is string work on its corner colours; what fits is only read from view.legal.

const orientation = new Map(); // tile name -> orientation shown (kept across updates)
const rackOrder = new Map(); // player -> tile names in the order the player arranged them

export function clockwise(tile) {
  return tile.slice(-1) + tile.slice(0, -1);
}

export function anticlockwise(tile) {
  return tile.slice(1) + tile.slice(0, 1);
}

function corners(g) {
  return Array.from(g.querySelectorAll("rect.corner")).slice(0, 4);
}

function outline(g) {
  const rects = g.querySelectorAll("rect");
  return rects[rects.length - 1];
}

const COLOURS = {};

function paint(g, tile) {
  const cs = corners(g);
  cs.forEach((rect, i) => {
    const colour = tile[i];
    if (COLOURS[colour]) rect.setAttribute("fill", COLOURS[colour]);
    rect.setAttribute("class", `corner corner-${colour}`);
  });
  g.dataset.orientation = tile;
}

export function comino(view, ctx) {
  const { boardBox, controls, sendMove, showMessage, el } = ctx;
  const svg = boardBox.querySelector("svg");
  if (!svg) return null;
  // Learn the drawing colours from the engine's own corners.
  for (const r of svg.querySelectorAll("rect.corner")) {
    const c = (r.getAttribute("class").match(/corner-([A-Z])/) || [])[1];
    if (c && !COLOURS[c]) COLOURS[c] = r.getAttribute("fill");
  }
  const legal = new Set(view.legal);
  const myPlayer = String(view.to_move + 1);
  let picked = null;
  const removeButton = el("button", { type: "button", id: "remove-tile", hidden: "" }, "Remove tile");
  controls.append(removeButton);

  const tiles = Array.from(svg.querySelectorAll("g.rack-tile"));
  for (const g of tiles) {
    const name = g.dataset.tile;
    const shown = orientation.get(name);
    if (shown) paint(g, shown);
    else g.dataset.orientation = name;
  }
  arrange(svg);

  function targets() {
    const out = new Set();
    if (!picked) return out;
    const o = picked.dataset.orientation;
    for (const m of view.legal) {
      const at = m.indexOf("@");
      if (at > 0 && m.slice(0, at) === o) out.add(m.slice(at + 1));
    }
    return out;
  }

  function mark() {
    const t = targets();
    for (const node of svg.querySelectorAll("[data-cell].cell")) {
      node.classList.toggle("target", picked !== null && t.has(node.dataset.cell));
    }
    for (const g of tiles) g.classList.toggle("selected", g === picked);
    const removal = picked ? `remove ${picked.dataset.tile}` : null;
    removeButton.hidden = !(removal && legal.has(removal));
  }

  removeButton.addEventListener("click", () => {
    if (picked) sendMove(`remove ${picked.dataset.tile}`);
  });

  function click(event) {
    const g = event.target.closest("g.rack-tile");
    if (g) {
      const box = outline(g).getBoundingClientRect();
      const x = (event.clientX - box.left) / box.width;
      const y = (event.clientY - box.top) / box.height;
      if (y < 0.5) {
        const turned = x < 0.5 ? anticlockwise(g.dataset.orientation) : clockwise(g.dataset.orientation);
        orientation.set(g.dataset.tile, turned);
        paint(g, turned);
      } else if (picked && picked !== g && picked.dataset.player === g.dataset.player) {
        swapInRack(svg, picked, g);
        picked = null;
      } else if (picked === g) {
        picked = null;
      } else if (g.dataset.player === myPlayer && view.your_turn) {
        picked = g;
      } else {
        picked = g; // the other rack: it can only be rearranged
      }
      mark();
      return true;
    }
    const cell = event.target.closest("[data-cell]");
    if (cell && picked && picked.dataset.player === myPlayer) {
      const move = `${picked.dataset.orientation}@${cell.dataset.cell}`;
      if (legal.has(move)) {
        orientation.delete(picked.dataset.tile);
        sendMove(move);
      } else {
        showMessage(`${picked.dataset.orientation} does not fit at ${cell.dataset.cell}; turn it or pick another square.`);
      }
      return true;
    }
    return Boolean(cell);
  }

  // The generic highlight marks every square some tile fits; start from a clean board.
  queueMicrotask(mark);
  return { click };
}

function slots(svg, player) {
  return Array.from(svg.querySelectorAll(`g.rack-tile[data-player="${player}"]`));
}

function baseX(g) {
  if (g.dataset.baseX === undefined) g.dataset.baseX = outline(g).getAttribute("x");
  return Number(g.dataset.baseX);
}

function arrange(svg) {
  for (const player of ["1", "2"]) {
    const gs = slots(svg, player);
    const order = rackOrder.get(player);
    if (!order) continue;
    const xs = gs.map(baseX).sort((a, b) => a - b);
    const known = order.filter((n) => gs.some((g) => g.dataset.tile === n));
    const rest = gs.map((g) => g.dataset.tile).filter((n) => !known.includes(n));
    [...known, ...rest].forEach((name, i) => {
      const g = gs.find((t) => t.dataset.tile === name);
      g.setAttribute("transform", `translate(${xs[i] - baseX(g)} 0)`);
    });
  }
}

function swapInRack(svg, a, b) {
  const player = a.dataset.player;
  const gs = slots(svg, player);
  const pos = (g) => baseX(g) + Number((g.getAttribute("transform") || "translate(0 0)").match(/translate\(([-\d.]+)/)[1]);
  const order = gs.slice().sort((x, y) => pos(x) - pos(y)).map((g) => g.dataset.tile);
  const i = order.indexOf(a.dataset.tile), j = order.indexOf(b.dataset.tile);
  [order[i], order[j]] = [order[j], order[i]];
  rackOrder.set(player, order);
  arrange(svg);
}
