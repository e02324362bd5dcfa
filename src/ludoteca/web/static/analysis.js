// The analysis board: play moves freely on a position (the server plays them: no rule lives
// here), and watch the computer's view of it stream in. The position travels in the link.
import { movePaths, sameCells } from "./moves.js";
import { interactionFor, preload } from "./interactions.js";
import { language, t } from "./i18n.js";
import { fingerFit } from "./finger_fit.js";

const root = document.getElementById("analysis");
const game = root.dataset.game;
const players = root.dataset.players;
const csrf = root.dataset.csrf;
const boardBox = document.getElementById("board");
const choices = document.getElementById("choices");
const message = document.getElementById("message");
let view = JSON.parse(document.getElementById("initial-view").textContent);
const history = [];
const start = view.position;
let selected = [];
// A game's own page module (Comino's tiles: turn, pick up, drop on a square), as on the game
// page: the same module arranges the same structured moves here, for either side to move.
let interaction = null;
const moduleControls = document.getElementById("module-controls");
let socket = null;
let analysing = false;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function say(text) { message.textContent = text; message.hidden = !text; }

function link(position) {
  const q = new URLSearchParams({ position });
  if (players) q.set("players", players);
  return `/analysis/${game}?${q}`;
}

const fitFinger = fingerFit(boardBox); // on a phone, cells a finger can take (finger_fit.js)
const TOUCH = matchMedia("(pointer: coarse)");

function show(next) {
  view = next;
  selected = [];
  const panned = [boardBox.scrollLeft, boardBox.scrollTop];
  boardBox.innerHTML = view.svg;
  fitFinger(panned);
  for (const cell of view.last_cells || []) {
    for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move");
  }
  const status = document.getElementById("status");
  status.textContent = view.over ? (view.result || t("Game over")) : view.to_move < 0 ? t("The table draws: pick an outcome") : t("{side} to move", { side: view.side });
  document.getElementById("hint").textContent = view.summary || "";
  document.getElementById("position").value = view.position;
  const url = link(view.position);
  document.getElementById("share").value = location.origin + url;
  window.history.replaceState(null, "", url);
  document.getElementById("back").disabled = history.length === 0;
  root.dataset.position = view.position;
  if (interaction && interaction.destroy) interaction.destroy();
  moduleControls.replaceChildren();
  const moduleView = { ...view, your_turn: view.legal.length > 0 }; // here one plays every side
  const prompt = view.hints && ((TOUCH.matches && view.hints.prompt_touch) || view.hints.prompt);
  if (moduleView.your_turn && prompt) moduleControls.append(el("p", { class: "hint" }, prompt));
  interaction = interactionFor(moduleView, { boardBox, controls: moduleControls, sendMove: play, showMessage: say, el, paths: movePaths(view.legal) }, () => show(view));
  pool = view.legal;
  narrowedTo = null;
  markBoard();
  clearReport();
  if (analysing) startAnalysis();
}

let paths = new Map();
// The moves known for the clicks so far: the view's, and in the compact form (thousands of
// moves: the cells a first click may take, in view.targets) the clicked cell's, asked of
// the server once per cell.
let pool = [];
let narrowedTo = null;
async function narrowTo(cell) {
  if (!view.legal_partial || cell === narrowedTo) return true;
  if (!cell) { pool = view.legal; narrowedTo = null; return true; }
  const asked = view.position;
  const q = new URLSearchParams({ position: asked, cell });
  if (players) q.set("players", players);
  const r = await fetch(`/api/analysis/${game}/moves?${q}`).catch(() => null);
  const data = r ? await r.json().catch(() => ({})) : {};
  if (!r || !r.ok) { say(data.error || t("That move is refused.")); return false; }
  if (view.position !== asked) return false;
  pool = [...view.legal, ...(data.moves || [])];
  narrowedTo = cell;
  return true;
}

function startsAt(cell) {
  return view.legal_partial ? (view.targets || []).includes(cell) : view.legal.some((m) => m.cells.includes(cell));
}

function markBoard() {
  paths = movePaths(pool);
  const cands = pool.filter((m) => selected.every((c) => m.cells.includes(c)));
  const targets = new Set();
  if (view.legal_partial && !selected.length) for (const c of view.targets || []) targets.add(c);
  else for (const m of cands) for (const c of m.cells) if (!selected.includes(c)) targets.add(c);
  for (const node of boardBox.querySelectorAll("[data-cell]")) {
    node.classList.toggle("target", targets.has(node.dataset.cell) && node.classList.contains("cell"));
    node.classList.toggle("selected", selected.includes(node.dataset.cell));
  }
  choices.replaceChildren();
  // With a page module the board is played as on the game page: no list of placements.
  const offer = selected.length && !interaction ? cands.filter((m) => sameCells(m.cells, selected)) : view.legal.filter((m) => !m.cells.length);
  for (const m of offer.slice(0, 40)) choices.append(moveButton(m.text, m.label));
  for (const c of view.chance) {
    choices.append(moveButton(c.text, `${c.text} (${Math.round(c.probability * 1000) / 10}%)`));
  }
}

function moveButton(text, label) {
  const b = el("button", { type: "button", class: "move-choice", "data-move": text }, label || text);
  b.addEventListener("click", () => play(text));
  return b;
}

boardBox.addEventListener("click", async (e) => {
  if (interaction && interaction.click && view.legal.length && interaction.click(e)) return;
  const node = e.target.closest("[data-cell]");
  if (!node || !(view.legal.length || view.legal_partial)) return;
  const cell = node.dataset.cell;
  if (selected.includes(cell)) selected = selected.filter((c) => c !== cell);
  else if (selected.length && pool.some((m) => m.cells.includes(cell) && selected.every((c) => m.cells.includes(c)))) selected.push(cell);
  else selected = startsAt(cell) ? [cell] : [];
  const asked = view.position;
  if (!(await narrowTo(selected[0] || null)) || view.position !== asked) return;
  const cands = pool.filter((m) => selected.every((c) => m.cells.includes(c)));
  const complete = cands.filter((m) => sameCells(m.cells, selected));
  if (complete.length === 1 && cands.length === 1) { play(complete[0].text); return; }
  markBoard();
});

const find = document.getElementById("find");
const findStart = find ? view.position : null;
async function compare(text) {
  const verdict = document.getElementById("find-verdict");
  verdict.textContent = t("Comparing with the game's move…");
  const r = await fetch(`/api/analysis/${game}/compare`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ position: findStart, move: text, played: find.dataset.played, players, csrf }),
  });
  const data = await r.json().catch(() => ({}));
  verdict.textContent = r.ok ? data.verdict : (data.error || "");
  verdict.className = `verdict ${r.ok && data.better ? "right" : "wrong"}`;
  find.dataset.result = r.ok ? (data.better ? "better" : "not-better") : "error";
}

async function play(text) {
  say("");
  if (find && view.position === findStart && root.dataset.signedIn) compare(text);
  const r = await fetch(`/api/analysis/${game}/play`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ position: view.position, move: text, players }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { say(data.error || t("That move is refused.")); return; }
  history.push(view);
  show(data);
}

document.getElementById("back").addEventListener("click", () => { if (history.length) { const prev = history.pop(); show(prev); } });
document.getElementById("start-over").addEventListener("click", () => { location.href = link(start); });
document.getElementById("load").addEventListener("click", () => {
  location.href = link(document.getElementById("position").value.trim());
});
document.getElementById("copy-link").addEventListener("click", async () => {
  const text = document.getElementById("share").value;
  try { await navigator.clipboard.writeText(text); document.getElementById("copied").textContent = t("copied"); }
  catch { document.getElementById("share").select(); document.getElementById("copied").textContent = t("press Ctrl+C"); }
});

// --- the computer's view ---------------------------------------------------------------------
function clearReport() {
  for (const node of boardBox.querySelectorAll(".best")) node.classList.remove("best", "best-1", "best-2", "best-3");
  document.getElementById("eval-bar").hidden = true;
  document.getElementById("values").replaceChildren();
  document.getElementById("pv").textContent = "—";
  document.querySelector("#top-moves tbody").replaceChildren();
  root.dataset.analysed = "";
}

function showReport(r) {
  if (r.position !== view.position) return; // about a position left since
  const values = document.getElementById("values");
  values.replaceChildren();
  r.sides.forEach((side, i) => {
    const pct = Math.round(r.values[i] * 1000) / 10;
    const row = el("div", { class: "value-row" });
    row.append(el("span", { class: "side" }, side));
    const bar = el("span", { class: "bar", role: "img", "aria-label": `${side}: ${pct}%` });
    const fill = el("span", { class: "fill" });
    fill.style.width = `${pct}%`;
    bar.append(fill);
    row.append(bar, el("span", { class: "pct" }, `${pct}%`));
    values.append(row);
  });
  document.getElementById("pv").textContent = r.pv.length ? r.pv.join("  ") : "—";
  // the best moves as marks on the board itself (their cells, from the position's legal
  // moves), and the side to move's expected result as a bar beside it
  for (const node of boardBox.querySelectorAll(".best")) node.classList.remove("best", "best-1", "best-2", "best-3");
  r.top.slice(0, 3).forEach((m, i) => {
    const legal = view.legal.find((l) => l.text === m.text);
    for (const cell of legal ? legal.cells : []) {
      for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"].cell`)) node.classList.add("best", `best-${i + 1}`);
    }
  });
  const side = r.to_move >= 0 ? r.to_move : 0;
  const bar = document.getElementById("eval-bar");
  const pct = Math.round(r.values[side] * 1000) / 10;
  bar.hidden = false;
  bar.setAttribute("aria-label", t("Evaluation: {side} {pct}%", { side: r.sides[side], pct }));
  document.getElementById("eval-fill").style.height = `${pct}%`;
  root.dataset.marked = String(boardBox.querySelectorAll(".best").length);
  const body = document.querySelector("#top-moves tbody");
  body.replaceChildren();
  const rows = r.top.length ? r.top : r.chance.map((c) => ({ text: c.text, label: `${c.text} (${Math.round(c.probability * 1000) / 10}%)`, visits: c.visits, value: c.values ? c.values[0] : null }));
  for (const m of rows) {
    const tr = el("tr");
    const td = el("td");
    td.append(moveButton(m.text, m.label || m.text));
    tr.append(td, el("td", { class: "num" }, String(m.visits)), el("td", { class: "num" }, m.value == null ? "" : `${Math.round(m.value * 1000) / 10}%`));
    body.append(tr);
  }
  document.getElementById("progress").textContent = t("{count} simulations, {seconds} s", { count: r.iterations.toLocaleString(language), seconds: r.seconds }) + (r.proven ? " — " + t("solved") : "");
  root.dataset.analysed = "1";
}

function startAnalysis() {
  if (!socket || socket.readyState !== WebSocket.OPEN) { connect(); return; }
  socket.send(JSON.stringify({ type: "start", game, players, position: view.position, csrf }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/analysis?lang=${encodeURIComponent(language)}`);
  socket.addEventListener("open", () => { if (analysing) startAnalysis(); });
  socket.addEventListener("message", (e) => {
    let data;
    try { data = JSON.parse(e.data); } catch { return; }
    if (data.type === "analysis") showReport(data);
    else if (data.type === "done" && data.position === view.position) setAnalysing(false);
    else if (data.type === "error") { say(data.message); setAnalysing(false); }
  });
  socket.addEventListener("close", () => { socket = null; setAnalysing(false); });
}

function setAnalysing(on) {
  analysing = on;
  const button = document.getElementById("analyse");
  if (button) button.textContent = on ? t("Stop") : t("Analyse");
}

const analyse = document.getElementById("analyse");
if (analyse) {
  analyse.addEventListener("click", () => {
    if (analysing) {
      setAnalysing(false);
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "stop" }));
    } else {
      setAnalysing(true);
      startAnalysis();
    }
  });
}
await preload(view.hints && view.hints.module); // the tiles answer from the first draw on
show(view);
