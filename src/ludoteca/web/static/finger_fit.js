// Finger-sized boards, shared by the game page and the solo pages (lessons, puzzles, the daily
// challenge). On a touch screen a board whose cells come out under a finger's size (44 px: Hexagone's
// and Comino's on a phone) is drawn larger, up to three times, and pans inside its box; the
// box keeps where it was panned to from one move to the next.
const COARSE = matchMedia("(pointer: coarse)");
const FINGER = 44;
function smallestCell(cells) {
  let least = Infinity;
  for (const c of cells) {
    const r = c.getBoundingClientRect();
    if (r.width && r.height) least = Math.min(least, r.width, r.height);
  }
  return least;
}

// A drawing's side panel (Hexagone's turn, dice and piles: a <g class="panel"> beside the
// cells) goes below the cells, in a drawing of its own held at the left of what the box
// shows while the board pans (position: sticky, in the box's one grid column as wide as the
// board): the cells take the whole width and the panel stays whole in view. (Set below the
// cells inside the drawing that pans, the first die and the first letters of each line lay
// outside the box on a block nine cells wide.) Its text is drawn at most PANEL_SCALE times
// its size, less where the box is narrower than that.
const SVG_NS = "http://www.w3.org/2000/svg";
const PANEL_SCALE = 1.35;
function panelBelow(svg, cells) {
  const panel = svg.querySelector(":scope > g.panel");
  if (!panel || !cells.length) return;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const c of cells) {
    const b = c.getBBox();
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
  }
  const gap = (y1 - y0) * 0.04;
  svg.setAttribute("viewBox", `${x0 - gap} ${y0 - gap} ${x1 - x0 + 2 * gap} ${y1 - y0 + 2 * gap}`);
  const p = panel.getBBox();
  const own = document.createElementNS(SVG_NS, "svg");
  own.setAttribute("class", "board-panel");
  own.setAttribute("viewBox", `${p.x - gap} ${p.y - gap} ${p.width + 2 * gap} ${p.height + 2 * gap}`);
  own.append(panel);
  svg.after(own);
}

// The panel's width: what the box shows of its content, or less (see PANEL_SCALE).
function fitPanel(boardBox) {
  const own = boardBox.querySelector(":scope > svg.board-panel");
  if (!own) return;
  const style = getComputedStyle(boardBox);
  const shown = boardBox.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  own.style.width = `${Math.floor(Math.min(shown, own.viewBox.baseVal.width * PANEL_SCALE))}px`;
}

// fingerFit(boardBox) gives the function that fits the box's board, called with where the box
// was panned before the board was drawn again: fit([scrollLeft, scrollTop]).
export function fingerFit(boardBox) {
  let zoomedBefore = false;
  return function fit([left, top]) {
    const svg = boardBox.querySelector("svg");
    boardBox.classList.remove("zoomed");
    boardBox.removeAttribute("tabindex");
    if (!svg || !COARSE.matches) return;
    const cells = svg.querySelectorAll(".cell[data-cell]");
    let least = smallestCell(cells);
    if (least < FINGER && svg.querySelector(":scope > g.panel")) {
      panelBelow(svg, cells);
      least = smallestCell(cells);
    }
    if (!(least < FINGER)) { fitPanel(boardBox); zoomedBefore = false; return; }
    const width = svg.getBoundingClientRect().width * Math.min(3, (FINGER + 0.5) / least);
    boardBox.classList.add("zoomed");
    boardBox.tabIndex = 0; // a box that pans is reached by the keyboard too (its arrows pan it)
    svg.style.width = `${Math.ceil(width)}px`;
    fitPanel(boardBox);
    if (zoomedBefore) { boardBox.scrollLeft = left; boardBox.scrollTop = top; return; }
    zoomedBefore = true;
    // The first time, the cells' middle is put in the middle of the box.
    let x0 = Infinity, x1 = -Infinity;
    for (const c of cells) {
      const r = c.getBoundingClientRect();
      x0 = Math.min(x0, r.left); x1 = Math.max(x1, r.right);
    }
    const box = boardBox.getBoundingClientRect();
    boardBox.scrollLeft += (x0 + x1) / 2 - (box.left + box.width / 2);
  };
}
