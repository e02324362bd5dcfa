// A game's course: each step's position comes from the server with its legal moves; a click
// is matched to those moves and sent back, and the engine's verdict is shown in words. A click
// that makes no legal move is sent as cells, and the engine says why it is refused. No rule
// lives here.
import { movePaths, sameCells } from "./moves.js";
import { interactionFor, preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("learn");
const game = root.dataset.game;
const total = Number(root.dataset.steps);
const member = Boolean(root.dataset.member);
const csrf = root.dataset.csrf;
const boardBox = document.getElementById("board");
const choices = document.getElementById("choices");
const verdict = document.getElementById("verdict");
const moduleControls = document.getElementById("module-controls");
const key = `ludoteca.learn.${game}`;
const lang = `?lang=${encodeURIComponent(language)}`; // the page's language, for the answers too
let done = member ? Number(root.dataset.done) : Number(localStorage.getItem(key) || 0);
let step = Math.min(done + 1, total);
let view = null;
let selected = [];
let solved = false;
let interaction = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function say(text, ok = false) {
  verdict.textContent = text;
  verdict.className = `verdict ${text ? (ok ? "right" : "wrong") : ""}`;
}

function markSteps() {
  for (const b of document.querySelectorAll(".step-link")) {
    const n = Number(b.dataset.step);
    b.closest("li").classList.toggle("done", n <= done);
    b.closest("li").classList.toggle("current", n === step);
    if (n === step) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
  }
}

async function load(n) {
  step = n;
  solved = false;
  say("");
  document.getElementById("next").hidden = true;
  const r = await fetch(`/api/learn/${game}/${n}${lang}`);
  const data = await r.json();
  if (!r.ok) { say(data.error || ""); return; }
  document.getElementById("lesson-text").textContent = `${t("Step {n} of {total}", { n, total })}: ${data.text}`;
  root.dataset.step = String(n);
  show(data);
  markSteps();
}

function show(next, playable = true) {
  view = next;
  selected = [];
  boardBox.innerHTML = view.svg;
  for (const cell of view.last_cells || []) {
    for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move");
  }
  if (interaction && interaction.destroy) interaction.destroy();
  interaction = null;
  moduleControls.replaceChildren();
  if (playable) {
    const moduleView = { ...view, your_turn: view.legal.length > 0 };
    if (view.hints && view.hints.prompt) moduleControls.append(el("p", { class: "hint" }, view.hints.prompt));
    interaction = interactionFor(moduleView, { boardBox, controls: moduleControls, sendMove: tryMove, showMessage: (m) => say(m), el, paths: movePaths(view.legal) }, () => show(view));
  } else {
    view = { ...view, legal: [] };
  }
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
    b.addEventListener("click", () => tryMove(m.text));
    choices.append(b);
  }
}

async function post(body) {
  const r = await fetch(`/api/learn/${game}/${step}${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, csrf }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { say(data.error || t("That move is refused.")); return null; }
  return data;
}

async function whyNot(cells) {
  const data = await post({ cells });
  selected = []; // the move is started afresh, as after any refusal
  markBoard();
  if (data) say(data.reason || t("That move is refused."));
}

boardBox.addEventListener("click", (e) => {
  if (solved || !view) return;
  if (interaction && interaction.click && view.legal.length && interaction.click(e)) return;
  const node = e.target.closest("[data-cell]");
  if (!node) return;
  const cell = node.dataset.cell;
  if (selected.includes(cell)) { selected = selected.filter((c) => c !== cell); markBoard(); return; }
  const fits = view.legal.some((m) => m.cells.includes(cell) && selected.every((c) => m.cells.includes(c)));
  if (!fits) { whyNot([...selected, cell]); return; }
  selected.push(cell);
  const cands = view.legal.filter((m) => selected.every((c) => m.cells.includes(c)));
  const complete = cands.filter((m) => sameCells(m.cells, selected));
  if (complete.length === 1 && cands.length === 1) { tryMove(complete[0].text); return; }
  say("");
  markBoard();
});

async function tryMove(text) {
  if (solved) return;
  const data = await post({ move: text });
  if (!data) return;
  if (!data.ok) { say(data.reason, false); selected = []; markBoard(); return; }
  solved = true;
  say(data.reason, true);
  show(data.after, false);
  if (step > done) {
    done = member && data.done ? data.done : step;
    if (!member) localStorage.setItem(key, String(done));
  }
  markSteps();
  root.dataset.solved = String(step);
  if (step < total) document.getElementById("next").hidden = false;
  else document.getElementById("finished").hidden = false;
}

document.getElementById("next").addEventListener("click", () => load(step + 1));
document.getElementById("retry").addEventListener("click", () => load(step));
for (const b of document.querySelectorAll(".step-link")) b.addEventListener("click", () => load(Number(b.dataset.step)));
const first = await fetch(`/api/learn/${game}/1${lang}`).then((r) => r.json()).catch(() => ({}));
await preload(first.hints && first.hints.module);
load(step);
