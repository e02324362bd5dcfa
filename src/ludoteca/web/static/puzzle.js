// A puzzle: the board and its legal moves come from the server; the page matches clicks to
// them and sends the move back; the server says right or wrong (with the refuting line) and
// shows the answer. Streak mode (?streak=1) counts puzzles solved in a row in this browser
// (a member's streak is also kept by the server).
import { movePaths, sameCells } from "./moves.js";
import { interactionFor, preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("puzzle");
const id = root.dataset.id;
const member = Boolean(root.dataset.member);
const csrf = root.dataset.csrf;
const boardBox = document.getElementById("board");
const choices = document.getElementById("choices");
const verdict = document.getElementById("verdict");
const moduleControls = document.getElementById("module-controls");
const lang = `?lang=${encodeURIComponent(language)}`;
const streakMode = new URLSearchParams(location.search).get("streak") === "1";
let view = null;
let selected = [];
let over = false;
let interaction = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function say(text, kind = "") { verdict.textContent = text; verdict.className = `verdict ${kind}`; }

function show(next, playable = true) {
  view = playable ? next : { ...next, legal: [] };
  selected = [];
  boardBox.innerHTML = view.svg;
  for (const cell of view.last_cells || []) {
    for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move");
  }
  if (interaction && interaction.destroy) interaction.destroy();
  interaction = null;
  moduleControls.replaceChildren();
  if (playable) {
    document.getElementById("to-move").textContent = t("{side} to move", { side: view.side });
    interaction = interactionFor({ ...view, your_turn: true }, { boardBox, controls: moduleControls, sendMove: tryMove, showMessage: (m) => say(m, "wrong"), el, paths: movePaths(view.legal) }, () => show(view));
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
  const r = await fetch(`/api/puzzles/${id}${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, csrf }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { say(data.error || t("That move is refused."), "wrong"); return null; }
  return data;
}

boardBox.addEventListener("click", async (e) => {
  if (over || !view) return;
  if (interaction && interaction.click && view.legal.length && interaction.click(e)) return;
  const node = e.target.closest("[data-cell]");
  if (!node) return;
  const cell = node.dataset.cell;
  if (selected.includes(cell)) { selected = selected.filter((c) => c !== cell); markBoard(); return; }
  if (!view.legal.some((m) => m.cells.includes(cell) && selected.every((c) => m.cells.includes(c)))) {
    const data = await post({ cells: [...selected, cell] });
    selected = [];
    markBoard();
    if (data) say(data.reason || t("That move is refused."), "wrong");
    return;
  }
  selected.push(cell);
  const cands = view.legal.filter((m) => selected.every((c) => m.cells.includes(c)));
  const complete = cands.filter((m) => sameCells(m.cells, selected));
  if (complete.length === 1 && cands.length === 1) { tryMove(complete[0].text); return; }
  markBoard();
});

function streak(solved) {
  const key = "ludoteca.puzzles.streak";
  const now = solved ? Number(localStorage.getItem(key) || 0) + 1 : 0;
  localStorage.setItem(key, String(now));
  return now;
}

async function tryMove(text) {
  if (over) return;
  const data = await post({ move: text });
  if (!data) return;
  if (data.refused) { say(data.reason, "wrong"); selected = []; markBoard(); return; }
  over = true;
  const line = data.line && data.line.length ? data.line : [];
  say(data.ok ? data.reason : `${data.reason} ${t("The answer: {move}", { move: data.answer })}`, data.ok ? "right" : "wrong");
  show(data.after, false);
  root.dataset.result = data.ok ? "solved" : "failed";
  root.dataset.line = line.join(" ");
  const count = data.me ? data.me.streak : streak(data.ok);
  if (streakMode) {
    document.getElementById("streak-line").hidden = false;
    document.getElementById("streak").textContent = String(count);
  }
  if (data.me) {
    const rating = document.getElementById("my-rating");
    if (rating) rating.textContent = String(data.me.rating);
    const change = document.getElementById("rating-change");
    if (change && data.me.rated) change.textContent = `(${data.me.change >= 0 ? "+" : ""}${data.me.change})`;
  }
  const next = document.getElementById("next");
  if (streakMode) next.href = `${next.getAttribute("href")}?streak=1`;
  next.hidden = false;
  document.getElementById("analyse").hidden = false;
}

if (streakMode) document.getElementById("streak-line").hidden = false;
const first = await fetch(`/api/puzzles/${id}${lang}`).then((r) => r.json());
await preload(first.hints && first.hints.module);
show(first);
root.dataset.ready = "1";
