// Comune: after clicking a cell, press a key (space or A) to cycle the angle among the
// placements the server lists for that cell, Enter to play it; the buttons under the board do
// the same. The generic interaction does the clicking and offers the pass; this adds the keys.
export function comune(view, ctx) {
  const { sendMove } = ctx;
  if (!view.your_turn) return null;
  let cycle = 0;
  function key(event) {
    const choices = Array.from(
      document.querySelectorAll("#picker > .choices .move-choice:not(.plain)"),
    );
    if (!choices.length) return;
    if (event.key === " " || event.key.toLowerCase() === "a") {
      event.preventDefault();
      cycle = (cycle + 1) % choices.length;
      choices.forEach((b, i) => b.classList.toggle("chosen", i === cycle));
    } else if (event.key === "Enter") {
      const chosen = choices[cycle] || choices[0];
      sendMove(chosen.dataset.move);
    }
  }
  return { key };
}
