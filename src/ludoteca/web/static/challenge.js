// The daily solo challenge: the server replays the moves so far with the day's dice and sends
// the position and its legal moves; the page matches clicks to them. A member enters a
// finished game; the server replays it again to check it.
import { movePaths, sameCells } from "./moves.js";
import { interactionFor, preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("challenge");
const day = root.dataset.day;
const csrf = root.dataset.csrf;
const boardBox = document.getElementById("board");
const choices = document.getElementById("choices");
const verdict = document.getElementById("verdict");
const moduleControls = document.getElementById("module-controls");
const lang = `?lang=${encodeURIComponent(language)}`;
const key = `ludoteca.challenge.${day}`;
let moves = JSON.parse(localStorage.getItem(key) || "[]");
let view = null;
let selected = [];
let interaction = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function say(text) { verdict.textContent = text; verdict.className = `verdict ${text ? "wrong" : ""}`; }

function show(next) {
  view = next;
  moves = view.moves;
  localStorage.setItem(key, JSON.stringify(moves));
  selected = [];
  boardBox.innerHTML = view.svg;
  if (interaction && interaction.destroy) interaction.destroy();
  moduleControls.replaceChildren();
  interaction = interactionFor({ ...view, your_turn: view.legal.length > 0 }, { boardBox, controls: moduleControls, sendMove: play, showMessage: say, el, paths: movePaths(view.legal) }, () => show(view));
  const status = document.getElementById("status");
  status.textContent = view.over
    ? t("Game over: {n} pieces captured.", { n: view.captured })
    : t("Roll {k} of 15, dice {dice}; {n} captured so far.", { k: view.rolls, dice: (JSON.parse(view.position).dice || "—"), n: view.captured });
  root.dataset.over = view.over ? "1" : "";
  root.dataset.captured = String(view.captured);
  const enter = document.getElementById("enter");
  enter.hidden = !(view.over && root.dataset.member && root.dataset.entered === "");
  markBoard();
}

function markBoard() {
  const cands = view.legal.filter((m) => selected.every((c) => m.cells.includes(c)));
  const targets = new Set();
  for (const m of cands) for (const c of m.cells) if (!selected.includes(c)) targets.add(c);
  for (const node of boardBox.querySelectorAll("[data-cell]")) {
    node.classList.toggle("target", targets.has(node.dataset.cell) && node.classList.contains("cell"));
    node.classList.toggle("selected", selected.includes(node.dataset.cell));
  }
  choices.replaceChildren();
  const offer = selected.length && !interaction ? cands.filter((m) => sameCells(m.cells, selected)) : view.legal.filter((m) => !m.cells.length);
  for (const m of offer.slice(0, 40)) {
    const b = el("button", { type: "button", class: "move-choice", "data-move": m.text }, m.label || m.text);
    b.addEventListener("click", () => play(m.text));
    choices.append(b);
  }
}

boardBox.addEventListener("click", (e) => {
  if (!view || !view.legal.length) return;
  if (interaction && interaction.click && interaction.click(e)) return;
  const node = e.target.closest("[data-cell]");
  if (!node) return;
  const cell = node.dataset.cell;
  if (selected.includes(cell)) selected = selected.filter((c) => c !== cell);
  else if (view.legal.some((m) => m.cells.includes(cell) && selected.every((c) => m.cells.includes(c)))) selected.push(cell);
  else selected = view.legal.some((m) => m.cells.includes(cell)) ? [cell] : [];
  const cands = view.legal.filter((m) => selected.every((c) => m.cells.includes(c)));
  const complete = cands.filter((m) => sameCells(m.cells, selected));
  if (complete.length === 1 && cands.length === 1) { play(complete[0].text); return; }
  markBoard();
});

async function post(path, body) {
  const r = await fetch(`/api/challenge/${day}/${path}${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, csrf }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { say(data.error || t("That move is refused.")); return null; }
  say("");
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
