// Offers during a game (abort, draw, takeback): the buttons for the offers this player may
// make now and the open offers with their answers. Which offers are allowed is the server's
// decision (it sends "may"); the page only shows what it is sent and sends back the click.
import { sendOnSocket } from "./game.js";
import { t } from "./i18n.js";

const box = document.getElementById("offers");
const list = document.getElementById("offer-list");
const asks = document.getElementById("offer-asks"); // the offers this player must answer
const error = document.getElementById("offer-error");
const buttons = Array.from(document.querySelectorAll("#offer-buttons [data-offer]"));
const root = document.getElementById("play");
const gameId = root.dataset.id;
const csrf = root.dataset.csrf;
let asked = null; // the "ply status" the offers were last asked for
let retry = null;
// The offers are asked for at most once in ASK_GAP_MS, the last position's always (a timer
// asks for it once the gap is over). A computer's turn can bring dozens of moves in a
// second (Hexagone's rolls, swaps and a reform's placements), each shown in turn; asking at
// every one took the page past the socket's 20 messages a second, and the server closed it
// as flooding. The first ask after a quiet moment goes at once.
const ASK_GAP_MS = 500;
let lastAsk = -Infinity;
let later = null;

const OFFERED = {
  abort: (name) => t("{name} offers to abort the game.", { name }),
  draw: (name) => t("{name} offers a draw.", { name }),
  takeback: (name) => t("{name} asks to take back their last move.", { name }),
};
const MINE = {
  abort: (names) => t("You offered to abort the game: waiting for {names}.", { names }),
  draw: (names) => t("You offered a draw: waiting for {names}.", { names }),
  takeback: (names) => t("You asked to take back your move: waiting for {names}.", { names }),
};

function send(message) {
  error.hidden = true;
  if (sendOnSocket({ type: "offer", ...message })) return true;
  if (message.action === "state") {
    fetch(`/api/games/${gameId}/offers`).then((r) => r.json()).then(show).catch(() => {});
    return true;
  }
  fetch(`/api/games/${gameId}/offers`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(message),
  }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    if (!r.ok) showError(data.error || t("The offer was refused."));
    ask(true);
  });
  return true;
}

function showError(message) {
  error.textContent = message;
  error.hidden = !message;
  if (message) box.hidden = false; // an answer refused is said even with no button left
}

function show(data) {
  if (!data || String(data.game) !== String(gameId)) return;
  const may = new Set(data.may || []);
  for (const b of buttons) b.hidden = !may.has(b.dataset.offer);
  list.replaceChildren();
  asks.replaceChildren();
  for (const offer of data.open || []) {
    const li = document.createElement("li");
    li.className = "offer";
    li.dataset.kind = offer.kind;
    const text = document.createElement("span");
    text.textContent = offer.yours ? MINE[offer.kind](offer.waiting.join(", ")) : OFFERED[offer.kind](offer.by);
    li.append(text);
    if (offer.to_answer) {
      for (const [accept, label] of [[true, t("Accept")], [false, t("Decline")]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.dataset.answer = accept ? "accept" : "decline";
        b.addEventListener("click", () => send({ action: accept ? "accept" : "decline", kind: offer.kind }));
        li.append(" ", b);
      }
    }
    (offer.to_answer ? asks : list).append(li);
  }
  asks.hidden = !asks.children.length;
  box.hidden = !(may.size || list.children.length || !error.hidden);
}

function ask(force = false) {
  const view = window.ludotecaView;
  if (!view || !view.seats.some((s) => s.you)) { box.hidden = asks.hidden = true; return; }
  const key = `${view.ply} ${view.status}`;
  if (!force && key === asked) return;
  if (view.status !== "active") { asked = key; box.hidden = asks.hidden = true; return; }
  const wait = lastAsk + ASK_GAP_MS - performance.now();
  if (wait > 0) { clearTimeout(later); later = setTimeout(() => ask(force), wait); return; }
  if (sendOnSocket({ type: "offer", action: "state" })) { asked = key; lastAsk = performance.now(); return; }
  clearTimeout(retry); // the socket is not open yet: ask again in a moment
  retry = setTimeout(() => ask(force), 400);
}

for (const b of buttons) b.addEventListener("click", () => send({ action: "make", kind: b.dataset.offer }));
document.addEventListener("ludoteca:offers", (e) => show(e.detail));
document.addEventListener("ludoteca:offer-error", (e) => { showError(e.detail.message); ask(true); });
document.addEventListener("ludoteca:view", (e) => { window.ludotecaView = e.detail; ask(); });
const initial = document.getElementById("initial-view");
try { window.ludotecaView = JSON.parse(initial.textContent); } catch { window.ludotecaView = null; }
ask();
