// The legal moves as the server sends them: {text, cells, label, ...}. A move's "path" is its
// list of board cells (data-cell values of the SVG) in click order, given by the engine.
// Nothing here knows a rule or a notation of any game.

export function movePaths(legal) {
  return new Map(legal.map((m) => [m.text, m.cells]));
}

export function sameCells(path, selected) {
  if (path.length !== selected.length) return false;
  const a = [...path].sort();
  const b = [...selected].sort();
  return a.every((c, i) => c === b[i]);
}
