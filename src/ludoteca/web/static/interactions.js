// Per-game touches on top of the generic click-and-pick interaction. Each one only arranges
// the server's legal move texts for a more natural click; none decides what is legal.
import { comune } from "./games/comune.js";
import { hexagone } from "./games/hexagone.js";
import { comino } from "./games/comino.js";
import { kuniumi } from "./games/kuniumi.js";

const modules = { comune, hexagone, comino, kuniumi };

export function interactionFor(view, ctx) {
  const make = modules[view.hints && view.hints.module];
  return make ? make(view, ctx) : null;
}
