// Hexagone: the dice are drawn by the server (shown in the board's panel); a swap is two
// clicks on highlighted pieces, done by the generic interaction. This adds plain buttons
// for "roll again" and "stop" with their meaning spelled out.
const LABELS = { again: "Roll again", stop: "Stop (end the turn)" };

export function hexagone(view, ctx) {
  const { controls, sendMove, el } = ctx;
  if (!view.your_turn) return null;
  for (const [move, label] of Object.entries(LABELS)) {
    if (!view.legal.includes(move)) continue;
    const b = el("button", { type: "button", id: `hex-${move}` }, label);
    b.addEventListener("click", () => sendMove(move));
    controls.append(b);
  }
  return null;
}
