// Comune: after clicking a cell, press a key (space or A) to cycle the angle among the
// placements the server lists for that cell, Enter to play it; the buttons under the board do
// the same. The generic interaction does the clicking; this adds the keys and a Pass button.
export function comune(view, ctx) {
  const { controls, sendMove, el } = ctx;
  if (!view.your_turn) return null;
  if (view.legal.includes("pass")) {
    const pass = el("button", { type: "button", id: "pass" }, "Pass");
    pass.addEventListener("click", () => sendMove("pass"));
    controls.append(pass);
  }
  let cycle = 0;
  function key(event) {
    const choices = Array.from(document.querySelectorAll("#picker > .choices .move-choice"))
      .filter((b) => b.dataset.move !== "pass");
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
