// The daily solo challenge: the server replays the moves so far with the day's dice and sends
// the position and its legal moves; the page matches clicks to them. A member enters a
// finished game; the server replays it again to check it.
import { boardPage, el, postJson } from "./board_page.js";
import { preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("challenge");
const day = root.dataset.day;
const csrf = root.dataset.csrf;
const verdict = document.getElementById("verdict");
const lang = `?lang=${encodeURIComponent(language)}`;
const key = `ludoteca.challenge.${day}`;
let moves = JSON.parse(localStorage.getItem(key) || "[]");

function say(text) { verdict.textContent = text; verdict.className = `verdict ${text ? "wrong" : ""}`; }

const board = boardPage({
  boardBox: document.getElementById("board"),
  choices: document.getElementById("choices"),
  controls: document.getElementById("module-controls"),
  sendMove: play,
  showMessage: say,
  redraw: () => show(board.state.view),
  open: (view) => view.legal.length > 0,
  // a cell no move takes with the cells chosen starts a new choice, if some move takes it
  miss: (cells, cell) => (board.state.view.legal.some((m) => m.cells.includes(cell)) ? [cell] : []),
  completeOnDeselect: true,
});

function show(view) {
  moves = view.moves;
  localStorage.setItem(key, JSON.stringify(moves));
  board.show(view, { lastCells: false });
  const status = document.getElementById("status");
  status.textContent = view.over
    ? t("Game over: {n} pieces captured.", { n: view.captured })
    : t("Roll {k} of 15, dice {dice}; {n} captured so far.", { k: view.rolls, dice: (JSON.parse(view.position).dice || "—"), n: view.captured });
  root.dataset.over = view.over ? "1" : "";
  root.dataset.captured = String(view.captured);
  const enter = document.getElementById("enter");
  enter.hidden = !(view.over && root.dataset.member && root.dataset.entered === "");
}

async function post(path, body) {
  const data = await postJson(`/api/challenge/${day}/${path}${lang}`, body, csrf, (error) => say(error || t("That move is refused.")));
  if (data) say("");
  return data;
}

async function play(text) {
  const data = await post("play", { moves, move: text });
  if (data) show(data);
}

document.getElementById("enter").addEventListener("click", async () => {
  const data = await post("enter", { moves });
  if (!data) return;
  root.dataset.entered = String(data.score);
  document.getElementById("enter").hidden = true;
  const list = document.getElementById("entries");
  list.replaceChildren(...data.entries.map((e) => el("li", {}, `${e.name}: ${e.score}`)));
  list.hidden = !data.entries.length;
  document.getElementById("no-entries").hidden = data.entries.length > 0;
});

document.getElementById("restart").addEventListener("click", async () => {
  moves = [];
  localStorage.removeItem(key);
  await start();
});

async function start() {
  let data = null;
  if (moves.length) {
    const r = await fetch(`/api/challenge/${day}/play${lang}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ moves: moves.slice(0, -1), move: moves[moves.length - 1] }) });
    if (r.ok) data = await r.json();
  }
  if (!data) data = await fetch(`/api/challenge/${day}${lang}`).then((r) => r.json());
  await preload(data.hints && data.hints.module);
  show(data);
  root.dataset.ready = "1";
}
start();
