// Kuniumi: say which piece the next set-up click places, read from the server's legal moves
// (they all name the same piece letter during set-up). Choosing a side and moving the god
// are done by the generic buttons and clicks.
const PIECES = { E: "the Earth God", S: "the Sea God", l: "a land token", s: "a sea token" };

export function kuniumi(view, ctx) {
  const { controls, el } = ctx;
  if (!view.your_turn || !view.legal.length) return null;
  const letters = new Set(view.legal.map((m) => (m.match(/^([A-Za-z])@/) || [])[1]));
  if (letters.size === 1) {
    const [letter] = letters;
    if (PIECES[letter]) controls.append(el("p", { class: "hint" }, `Click a square to place ${PIECES[letter]}.`));
  } else if (view.legal.every((m) => m.startsWith("choose"))) {
    controls.append(el("p", { class: "hint" }, "Choose the side you will play:"));
  } else if (view.legal.some((m) => /^[a-f][1-6]-[a-f][1-6]$/.test(m))) {
    controls.append(el("p", { class: "hint" }, "Click your god, then a highlighted square."));
  }
  return null;
}
