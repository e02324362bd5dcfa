// Matching move texts to board cells: pure string work on what the server sent.
// A move's "path" is the list of board cells (data-cell values of the SVG) its text names,
// in the order they appear. Nothing here knows a rule of any game.

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function cellPattern(cells) {
  const sorted = [...cells].sort((a, b) => b.length - a.length).map(escapeRe);
  if (!sorted.length) return null;
  return new RegExp(`(?<![A-Za-z0-9_,.])(${sorted.join("|")})(?![A-Za-z0-9_,])`, "g");
}

export function cellPaths(moves, cells) {
  const re = cellPattern(cells);
  const out = new Map();
  for (const m of moves) {
    const path = [];
    if (re) for (const match of m.matchAll(re)) path.push(match[1]);
    out.set(m, path);
  }
  return out;
}

export function sameCells(path, selected) {
  if (path.length !== selected.length) return false;
  const a = [...path].sort();
  const b = [...selected].sort();
  return a.every((c, i) => c === b[i]);
}
