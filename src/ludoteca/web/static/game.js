// The game page: shows what the server sends and sends back the move the player chose.
// No rule and no notation live here: the legal moves arrive as {text, cells, label} from the
// engine; clicking the board only narrows them down by their cells, buttons show their
// labels, and the text chosen is sent back as it came.
import { movePaths, sameCells } from "./moves.js";
import { interactionFor, preload } from "./interactions.js";
import { watchLetters } from "./letters.js";
import { fingerFit } from "./finger_fit.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("play");
const gameId = root.dataset.id;
const csrf = root.dataset.csrf;
const boardBox = document.getElementById("board");
const statusBox = document.getElementById("status");
const messageBox = document.getElementById("message");
const picker = document.getElementById("picker");
const controls = document.getElementById("controls");
const thinkingBox = document.getElementById("thinking");
// A finger has no hover and cannot aim at a tile's corners: a game may word its prompt for it.
const TOUCH = window.matchMedia("(pointer: coarse)");
let view = JSON.parse(document.getElementById("initial-view").textContent);
let socket = null;
let retry = 0;
let selected = [];
let paths = new Map();
let interaction = null;
let targets = new Set();
// The clock as the server last told it, and when (by this page's monotonic clock): the
// browser only counts down from there, so its own time of day never matters.
let clock = null;
let clockAt = 0;
let lookingAt = 0; // the ply of an earlier board looked at from the log; 0: the game as it is
const lookBack = document.getElementById("look-back");

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function showMessage(text) {
  messageBox.textContent = text;
  messageBox.hidden = !text;
}

export function sendMove(text) {
  showMessage("");
  const msg = { type: "move", move: text, ply: view.ply, csrf };
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(msg));
    return;
  }
  // Without a socket: the answer to the move holds the new view (?view=1), no second request.
  fetch(`/api/games/${gameId}/move?view=1&compact=1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ move: text, ply: view.ply }),
  }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    if (!r.ok) showMessage(data.error || t("The move was refused."));
    else if (data.view && data.view.type === "state") render(data.view);
    else refresh();
  });
}

function refresh() {
  fetch(`/api/games/${gameId}?compact=1`).then((r) => r.json()).then((v) => { if (v.type === "state") render(v); });
}

function candidates() {
  const out = [];
  for (const [move, path] of paths) {
    if (selected.every((c) => path.includes(c))) out.push(move);
  }
  return out;
}

function markBoard() {
  const cands = candidates();
  targets = new Set();
  // Thousands of moves (Comune's turns) come compact: the cells to click first, and each
  // clicked cell's moves asked for then (narrowTo).
  if (view.legal_partial && !selected.length) for (const c of view.targets || []) targets.add(c);
  const firstOnly = selected.length === 0 && view.hints.first === "origin";
  for (const m of cands) {
    const path = paths.get(m);
    if (firstOnly) { if (path.length) targets.add(path[0]); continue; }
    for (const c of path) if (!selected.includes(c)) targets.add(c);
  }
  for (const node of boardBox.querySelectorAll("[data-cell]")) {
    const cell = node.dataset.cell;
    const target = view.your_turn && targets.has(cell) && node.classList.contains("cell");
    node.classList.toggle("target", target);
    node.classList.toggle("selected", selected.includes(cell));
    // Keyboard and screen readers: the cells one can play are buttons (Tab, then Enter).
    if (!node.classList.contains("cell")) continue;
    const active = target || selected.includes(cell);
    if (active) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", selected.includes(cell) ? t("{cell}, selected", { cell }) : t("{cell}, playable", { cell }));
    } else {
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
    }
  }
  renderPicker(cands);
}

let labels = new Map();
function labelOf(text) {
  return labels.get(text) ?? text;
}

function moveButton(text, extraClass = "") {
  const b = el("button", { type: "button", class: `move-choice${extraClass}`, "data-move": text }, labelOf(text));
  b.addEventListener("click", () => sendMove(text));
  return b;
}

function renderPicker(cands) {
  picker.replaceChildren();
  cycle = 0;
  if (!view.your_turn || !(view.legal.length || view.legal_partial)) return;
  const complete = selected.length ? cands.filter((m) => sameCells(paths.get(m), selected)) : [];
  const plain = view.legal.filter((m) => m.cells.length === 0);
  const row = el("div", { class: "choices" });
  for (const m of complete) row.append(moveButton(m));
  if (complete.length > 1) showPreviews(row, complete);
  // Moves that name no cell (a pass, a choice), once each, in the words the game gives them.
  for (const m of plain) row.append(moveButton(m.text, " plain"));
  if (selected.length) {
    const clear = el("button", { type: "button", class: "clear secondary" }, t("Clear selection"));
    clear.addEventListener("click", () => { selected = []; narrowTo(null); markBoard(); });
    row.append(clear);
  }
  picker.append(row);
  // The choices a click left (Comune's angles), or moves that name no cell when the board
  // offers none (Hexagone's roll again or stop): the player must press one of them now.
  if (complete.length || (plain.length && !targets.size)) bringIntoView(row);
  const all = el("details", { class: "all-moves" });
  all.append(el("summary", {}, t("All legal moves ({count})", { count: view.legal_count ?? view.legal.length })));
  const form = el("form", { class: "type-move" });
  const input = el("input", { name: "move", list: "legal-list", placeholder: t("type a move"), autocomplete: "off", "aria-label": t("move") });
  const list = el("datalist", { id: "legal-list" });
  const listed = view.legal_partial ? [...paths.keys()].map((text) => ({ text, label: labelOf(text) })) : view.legal;
  for (const m of listed.slice(0, 2000)) list.append(el("option", { value: m.text }));
  form.append(input, list, el("button", { type: "submit" }, t("Play")));
  form.addEventListener("submit", (e) => { e.preventDefault(); if (input.value.trim()) sendMove(input.value.trim()); });
  all.append(form);
  const box = el("div", { class: "choices" });
  for (const m of listed.slice(0, 300)) {
    const b = el("button", { type: "button", class: "move-choice", "data-move": m.text, title: m.label }, m.text);
    b.addEventListener("click", () => sendMove(m.text));
    box.append(b);
  }
  all.append(box);
  picker.append(all);
}

const PREVIEWED = 12; // the choices drawn, at most
function cellsBox(cells) {
  let box = null;
  for (const c of cells) {
    const node = boardBox.querySelector(`[data-cell="${CSS.escape(c)}"]`);
    if (!node || !node.getBBox) continue;
    const b = node.getBBox();
    box = box ? {
      x: Math.min(box.x, b.x), y: Math.min(box.y, b.y),
      r: Math.max(box.r, b.x + b.width), b: Math.max(box.b, b.y + b.height),
    } : { x: b.x, y: b.y, r: b.x + b.width, b: b.y + b.height };
  }
  return box;
}

// Several moves on the same cells (Comune's angles): a small drawing of each, made by the
// engine (the board after the move) and cropped here around the clicked cells. Each button
// has its drawing's room from the start: the drawings arrive a moment after the buttons, and
// when they made the buttons taller the page scrolled to keep them in view and the board moved
// under a pointer already on its way to the next cell, which then took the click.
async function showPreviews(row, moves) {
  const box = cellsBox(selected);
  const asked = view.ply;
  const shown = moves.slice(0, PREVIEWED);
  const frames = new Map();
  for (const button of row.querySelectorAll(".move-choice[data-move]")) {
    if (!shown.includes(button.dataset.move)) continue;
    const pic = el("span", { class: "preview", "aria-hidden": "true" });
    button.prepend(pic);
    button.classList.add("pictured");
    frames.set(button.dataset.move, pic);
  }
  const r = await fetch(`/api/games/${gameId}/preview`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ moves: shown, ply: view.ply }),
  }).catch(() => null);
  const { svgs } = r && r.ok ? await r.json().catch(() => ({})) : {};
  if (view.ply !== asked) return; // drawn again since: this row is gone
  for (const [move, pic] of frames) {
    const svg = svgs && svgs[move];
    if (!svg) { // no drawing after all: the button as it is without one
      pic.parentElement.classList.remove("pictured");
      pic.remove();
      continue;
    }
    pic.innerHTML = svg; // the engine's own drawing, as the board is
    const drawing = pic.querySelector("svg");
    if (drawing && box) {
      const w = box.r - box.x, h = box.b - box.y, pad = Math.max(w, h);
      drawing.setAttribute("viewBox", `${box.x - pad} ${box.y - pad} ${w + 2 * pad} ${h + 2 * pad}`);
    }
  }
  row.dataset.previews = "1";
}

// A control the player must use now is scrolled into the window when any of it is outside
// (the angle choices opened below the fold at 1280 × 800), by the least distance.
let pressing = false; // a pointer held down (a drag): the page must not move under it
let presses = 0; // pointers put down so far
function bringIntoView(node) {
  const skipped = pressing || !node.isConnected; // scrollIfOut leaves it for now
  scrollIfOut(node);
  // The page may still move under it (the board drawn larger for fingers, a side panel set
  // below the block, the log and status filled in): look again once the layout has settled.
  // Only if it did move, and not once the person has pressed since: when only the window had
  // moved, the person had scrolled it (to the board's top row for their next cell), and
  // pulling it back moved the board under their pointer, so the click took another cell.
  const place = () => {
    const r = node.getBoundingClientRect();
    return [r.top + scrollY, r.left + scrollX, r.width, r.height];
  };
  let was = place();
  const pressed = presses;
  const again = () => {
    const now = place();
    if (presses !== pressed) return;
    if (skipped || now.some((v, i) => Math.abs(v - was[i]) > 0.5)) scrollIfOut(node);
    was = place();
  };
  requestAnimationFrame(() => requestAnimationFrame(again));
  setTimeout(again, 250);
}
function scrollIfOut(node) {
  if (!node.isConnected || pressing) return;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return;
  if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) return;
  node.scrollIntoView({ block: r.height > innerHeight ? "start" : "nearest", inline: "nearest" });
}
// The game's own buttons (Comino's Remove tile and turns) show when they are needed; not
// while a pointer is held down (a drag: the page must not move under it).
addEventListener("pointerdown", () => { pressing = true; presses += 1; }, true);
for (const type of ["pointerup", "pointercancel"]) addEventListener(type, () => { pressing = false; }, true);
new MutationObserver((changes) => {
  if (!view.your_turn || pressing) return;
  const shown = changes.map((c) => c.target).filter((n) => n instanceof HTMLButtonElement && !n.hidden);
  if (shown.length) bringIntoView(controls);
}).observe(controls, { subtree: true, attributes: true, attributeFilter: ["hidden"] });

// Keys for the choices a click left (several moves on the same cells, as angles are):
// space or A cycles through them, Enter plays the one marked.
let cycle = 0;
function cycleKey(event) {
  const choices = Array.from(document.querySelectorAll("#picker > .choices .move-choice:not(.plain)"));
  if (!view.your_turn || !choices.length) return;
  if (event.key === " " || event.key.toLowerCase() === "a") {
    event.preventDefault();
    cycle = (cycle + 1) % choices.length;
    choices.forEach((b, i) => b.classList.toggle("chosen", i === cycle));
  } else if (event.key === "Enter" && !(event.target instanceof HTMLInputElement)) {
    sendMove((choices[cycle] || choices[0]).dataset.move);
  }
}

// The compact form's moves naming one clicked cell, asked of the server once per cell; the
// next clicks narrow them down here. Without a cell, only the moves that name none.
let narrowedTo = null;
async function narrowTo(cell) {
  if (!view.legal_partial || cell === narrowedTo) return true;
  const base = view.legal;
  if (!cell) {
    paths = movePaths(base);
    narrowedTo = null;
    return true;
  }
  const asked = view.ply;
  const r = await fetch(`/api/games/${gameId}/moves?cell=${encodeURIComponent(cell)}`).catch(() => null);
  if (!r || !r.ok || view.ply !== asked) return false;
  const data = await r.json();
  if (view.ply !== asked || data.ply !== asked) return false;
  paths = movePaths([...base, ...data.moves]);
  for (const m of data.moves) labels.set(m.text, m.label);
  narrowedTo = cell;
  return true;
}

async function onBoardClick(event) {
  if (!view.your_turn) return;
  if (interaction && interaction.click && interaction.click(event)) return;
  const node = event.target.closest("[data-cell]");
  if (!node) return;
  const cell = node.dataset.cell;
  if (selected.includes(cell)) {
    selected = selected.filter((c) => c !== cell);
  } else if (targets.has(cell)) {
    selected.push(cell);
  } else {
    selected = [];
    const starts = view.legal_partial
      ? (view.targets || []).includes(cell)
      : [...paths.values()].some((p) => p.includes(cell));
    if (starts) selected.push(cell);
  }
  const asked = view.ply;
  if (!(await narrowTo(selected[0] || null)) || view.ply !== asked) return;
  const cands = candidates();
  const complete = cands.filter((m) => sameCells(paths.get(m), selected));
  const longer = cands.filter((m) => paths.get(m).length > selected.length);
  if (complete.length === 1 && longer.length === 0) {
    const move = complete[0];
    selected = [];
    sendMove(move);
    return;
  }
  markBoard();
}

function renderSide() {
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (const s of view.seats) {
    const li = el("li", { class: "seat" + (s.index === view.to_move ? " to-move" : "") + (s.you ? " you" : "") });
    li.textContent = `${s.side}: ${s.label}${s.you ? " " + t("(you)") : ""}${s.resigned ? " — " + t("resigned") : ""}${s.timed_out ? " — " + t("out of time") : ""}`;
    li.append(el("span", { class: "clock", "data-seat": String(s.index) }));
    seats.append(li);
  }
  const scores = document.getElementById("scores");
  scores.textContent = view.scores ? t("Scores:") + " " + view.scores.map((v, i) => `${view.seats[i] ? view.seats[i].side : i + 1} ${v}`).join(" · ") : "";
  document.getElementById("summary").textContent = view.summary || "";
  renderLog(document.getElementById("movelist"));
  const seated = view.seats.some((s) => s.you && !s.resigned);
  document.getElementById("resign").hidden = !(seated && view.status === "active");
  document.getElementById("replay-link").hidden = view.status !== "finished";
}

// The game's log: one entry per move in the engine's words (who did what and what it
// caused), its notation beside it; a run of the table's draws (Comino's deal) is one entry,
// told by its last draw. Each entry opens the game at that move: the replay once the game is
// over, a look back at that board (and a way back) while it is played.
function renderLog(list) {
  const moves = view.moves;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  let step = 0; // the players' moves so far
  for (let i = 0; i < moves.length; i++) {
    let j = i;
    while (moves[i].player < 0 && j + 1 < moves.length && moves[j + 1].player < 0) j++;
    const run = moves.slice(i, j + 1);
    const m = moves[j];
    if (m.player >= 0) step += 1; // numbered among the players' moves, as the review is
    const li = el("li", { "data-ply": String(m.ply), class: m.player < 0 ? "chance" : "" });
    const href = view.status === "finished" ? `/games/${gameId}/replay?ply=${m.ply}` : "#";
    const a = el("a", { href, "data-ply": String(m.ply) });
    a.append(el("span", { class: "num" }, m.player >= 0 ? String(step) : ""));
    const words = m.note || `${m.side}: ${m.text}`;
    a.append(el("span", { class: "words" }, words));
    const notation = run.length > 1 ? t("{count} draws", { count: run.length }) : m.text;
    a.append(el("span", { class: "notation", title: run.map((d) => d.text).join(", ") }, notation));
    li.append(a);
    if (lookingAt === m.ply) li.classList.add("current");
    list.append(li);
    i = j;
  }
  if (atEnd || !lookingAt) list.scrollTop = list.scrollHeight;
}

// --- looking back at an earlier move while the game goes on ----------------------------------
async function showPly(ply, number) {
  if (ply >= view.ply) { backToGame(); return; }
  lookingAt = ply;
  const r = await fetch(`/api/games/${gameId}/replay/${ply}`).catch(() => null);
  if (!r || !r.ok || lookingAt !== ply) return;
  const data = await r.json();
  const panned = [boardBox.scrollLeft, boardBox.scrollTop];
  boardBox.innerHTML = data.svg;
  fitFinger(panned); // an earlier board is as finger-sized as the current one
  boardBox.classList.add("looking-back");
  root.classList.add("looking-back"); // the move controls wait until the player is back
  lookBack.hidden = false;
  document.getElementById("look-back-text").textContent = t("The board after move {n}; the game goes on.", { n: number || ply });
  for (const li of document.querySelectorAll("#movelist li")) li.classList.toggle("current", Number(li.dataset.ply) === ply);
}
function backToGame() {
  if (!lookingAt) return;
  lookingAt = 0;
  lookBack.hidden = true;
  render(view);
}
document.getElementById("movelist").addEventListener("click", (e) => {
  const a = e.target.closest("a[data-ply]");
  if (!a || view.status === "finished") return; // a finished game's entries open the replay
  e.preventDefault();
  showPly(Number(a.dataset.ply), a.querySelector(".num")?.textContent);
});
document.getElementById("look-back-return").addEventListener("click", backToGame);

function renderStatus() {
  let text;
  if (view.status === "open") text = t("Waiting for players to join…");
  else if (view.status === "finished") {
    text = view.result_text || t("Game over");
    if (view.result_you) text = `${view.result_you} — ${text}`;
  } else if (view.your_turn) text = t("Your turn ({side})", { side: view.to_move_side });
  else text = t("{player} ({side}) to move", { player: view.to_move_label, side: view.to_move_side });
  statusBox.textContent = text;
  statusBox.className = "status " + view.status + (view.your_turn ? " your-turn" : "");
  // The computer's turn can take seconds: say that it is thinking, not only whose turn it is.
  // The line keeps its place in a game with a computer seat, so the board does not jump
  // when the computer's turn ends.
  const seat = view.seats.find((s) => s.index === view.to_move);
  thinkingBox.hidden = !(view.status === "active" && view.seats.some((s) => s.kind === "bot"));
  thinkingBox.classList.toggle("idle", !(seat && seat.kind === "bot"));
  statusBox.dataset.ply = view.ply;
}

// --- clocks ---------------------------------------------------------------------------------
function setClock(c) {
  clock = c || null;
  clockAt = performance.now();
  const info = document.getElementById("clock-info");
  if (!clock) { info.hidden = true; tickClocks(); return; }
  info.hidden = false;
  info.textContent = clock.kind === "live"
    ? t("Live clock: {base} + {increment} s a move", { base: formatBase(clock.base), increment: clock.increment })
    : clock.days === 1 ? t("Correspondence: 1 day a move") : t("Correspondence: {days} days a move", { days: clock.days });
  tickClocks();
}

function formatBase(seconds) {
  return seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;
}

export function formatLive(ms) {
  ms = Math.max(0, ms);
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  if (ms < 10000) return `0:${pad(s)}.${Math.floor((ms % 1000) / 100)}`;
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function formatLeft(ms) {
  ms = Math.max(0, ms);
  const days = Math.floor(ms / 86400000), h = Math.floor((ms % 86400000) / 3600000);
  const m = Math.floor((ms % 3600000) / 60000), s = Math.floor((ms % 60000) / 1000);
  if (days) return days === 1 ? t("1 day {hours} h left", { hours: h }) : t("{days} days {hours} h left", { days, hours: h });
  if (h) return t("{hours} h {minutes} min left", { hours: h, minutes: m });
  if (m) return t("{minutes} min left", { minutes: m });
  return t("{seconds} s left", { seconds: s });
}

function tickClocks() {
  const spent = clock ? performance.now() - clockAt : 0;
  for (const span of document.querySelectorAll("#seats .clock")) {
    const i = Number(span.dataset.seat);
    let text = "";
    const running = clock && clock.running === i;
    let low = false, out = false;
    if (clock && clock.kind === "live" && clock.ms && clock.ms[i] != null) {
      const left = running ? clock.ms[i] - spent : clock.ms[i];
      text = formatLive(left);
      low = left < clock.low_ms;
      out = left <= 0 || clock.timed_out.includes(i);
    } else if (clock && clock.kind === "correspondence" && running && clock.deadline) {
      const left = clock.deadline - clock.now - spent;
      text = formatLeft(left);
      out = left <= 0;
    } else if (clock && clock.timed_out.includes(i)) {
      text = t("out of time");
      out = true;
    }
    span.textContent = text;
    span.className = "clock" + (running ? " running" : "") + (low ? " low" : "") + (out ? " flagged" : "");
  }
}

// The line of players and their ratings: sent while a game waits for players and once it is
// over, so a join, or the ratings a rated game has just changed, show without a reload.
function renderPlayers(line) {
  const box = document.getElementById("players");
  if (!box || !line) return;
  box.replaceChildren(line.rated ? t("Rated") : t("Casual"));
  line.players.forEach((p, i) => {
    box.append(i === 0 ? ": " : " · ");
    box.append(el("a", { href: `/users/${encodeURIComponent(p.name)}` }, p.name));
    if (p.rating) {
      box.append(" ");
      box.append(el("span", { class: "seat-rating" }, p.rating));
    }
  });
}

// An optional short sound when someone else moves (off unless the player turns it on here).
const soundBox = document.getElementById("move-sound");
if (soundBox) {
  soundBox.checked = localStorage.getItem("ludoteca-sound") === "on";
  soundBox.addEventListener("change", () => localStorage.setItem("ludoteca-sound", soundBox.checked ? "on" : "off"));
}
let audio = null;
function moveSound() {
  if (!soundBox || !soundBox.checked) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.15);
  } catch { /* no sound on this browser */ }
}

// On a touch screen a board whose cells come out under a finger's size is drawn larger and
// pans inside its box (finger_fit.js).
const fitFinger = fingerFit(boardBox);

// The engine draws its board as a picture (role img); on this page its cells are controls,
// so the board is a group of them, under the same name.
function boardAsGroup() {
  const svg = boardBox.querySelector("svg");
  if (!svg) return;
  svg.setAttribute("role", "group");
  if (!svg.getAttribute("aria-label")) svg.setAttribute("aria-label", t("{game} board", { game: view.title }));
}

function render(newView) {
  const moved = view && newView.ply > view.ply && !newView.seats.some((s) => s.you && s.index === lastMover(newView));
  view = newView;
  if (moved) moveSound();
  selected = [];
  lookingAt = 0; // a new position (or the way back) shows the game as it is
  lookBack.hidden = true;
  boardBox.classList.remove("looking-back");
  root.classList.remove("looking-back");
  const panned = [boardBox.scrollLeft, boardBox.scrollTop];
  boardBox.innerHTML = view.svg;
  fitFinger(panned);
  for (const cell of view.last_cells || []) {
    for (const node of boardBox.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move", "arrived");
  }
  boardAsGroup();
  paths = movePaths(view.legal);
  labels = new Map(view.legal.map((m) => [m.text, m.label]));
  narrowedTo = null;
  renderStatus();
  renderSide();
  renderPlayers(view.players_line);
  setClock(view.clock);
  document.getElementById("watching").hidden = !(view.watching && view.status === "active");
  controls.replaceChildren();
  const prompt = (TOUCH.matches && view.hints.prompt_touch) || view.hints.prompt;
  if (view.your_turn && prompt) controls.append(el("p", { class: "hint" }, prompt));
  if (interaction && interaction.destroy) interaction.destroy();
  interaction = interactionFor(view, { boardBox, controls, sendMove, showMessage, el, paths }, () => render(view));
  markBoard();
  root.dataset.ply = view.ply;
  root.dataset.status = view.status;
  const rematch = document.getElementById("rematch");
  if (rematch) rematch.hidden = !(view.status === "finished" && view.seats.some((s) => s.you));
  document.dispatchEvent(new CustomEvent("ludoteca:view", { detail: view }));
}

// Other parts of the page (the chat) send on the game's socket when it is open.
export function sendOnSocket(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify({ ...message, csrf }));
  return true;
}

// Pieces that leave the board (Hexagone's captures) are shown leaving first: the cells of
// the board as it stands that the new position no longer has are marked for a moment, then
// the new position is drawn. Views arriving meanwhile wait behind it, the newest kept.
const LEAVING_MS = 700;
let waiting = null;
function leavingCells(next) {
  const probe = document.createElement("div");
  probe.innerHTML = next.svg;
  const still = new Set(Array.from(probe.querySelectorAll("[data-cell]"), (n) => n.dataset.cell));
  return Array.from(boardBox.querySelectorAll("[data-cell]")).filter((n) => !still.has(n.dataset.cell));
}
function show(next) {
  if (waiting) { waiting = next; return; }
  const leaving = next.ply > view.ply ? leavingCells(next) : [];
  if (!leaving.length) { render(next); return; }
  for (const node of leaving) node.classList.add("leaving");
  waiting = next;
  setTimeout(() => { const latest = waiting; waiting = null; render(latest); }, LEAVING_MS);
}

function lastMover(v) {
  for (let i = v.moves.length - 1; i >= 0; i--) if (v.moves[i].player >= 0) return v.moves[i].player;
  return -1;
}

function sameState(a, b) {
  const key = (v) => JSON.stringify([v.ply, v.status, v.to_move, v.your_turn, v.seats, v.result]);
  return key(a) === key(b);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}?lang=${encodeURIComponent(language)}&compact=1`);
  const conn = document.getElementById("connection");
  socket.addEventListener("open", () => { retry = 0; conn.textContent = t("live"); root.dataset.live = "1"; });
  socket.addEventListener("message", (e) => {
    let data;
    try { data = JSON.parse(e.data); } catch { return; }
    if (data.type === "state" && String(data.id) === String(gameId)) {
      root.dataset.synced = "1";
      if (sameState(data, view)) { setClock(data.clock); return; } // keep the half-made selection
      showMessage("");
      show(data);
    }
    else if (data.type === "offers") document.dispatchEvent(new CustomEvent("ludoteca:offers", { detail: data }));
    else if (data.type === "error" && data.about === "offer") document.dispatchEvent(new CustomEvent("ludoteca:offer-error", { detail: data }));
    else if (data.type === "chat") document.dispatchEvent(new CustomEvent("ludoteca:chat", { detail: data.line }));
    else if (data.type === "error" && data.about === "chat") document.dispatchEvent(new CustomEvent("ludoteca:chat-error", { detail: data }));
    else if (data.type === "error") showMessage(data.message);
  });
  socket.addEventListener("close", () => {
    root.dataset.live = "0";
    conn.textContent = t("reconnecting…");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

// A resignation, like a move, names the position it was decided on (view.ply): the server
// refuses it if the game has moved on since, and the page shows why.
document.getElementById("resign").addEventListener("click", () => {
  if (!confirm(t("Resign this game?"))) return;
  showMessage("");
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "resign", ply: view.ply, csrf }));
    return;
  }
  fetch(`/api/games/${gameId}/resign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ ply: view.ply }),
  }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    if (!r.ok) showMessage(data.error || t("The resignation was refused."));
    else refresh();
  });
});
boardBox.addEventListener("click", onBoardClick);
boardBox.addEventListener("keydown", (e) => {
  const node = e.target.closest && e.target.closest("[data-cell][tabindex]");
  if (!node || e.key !== "Enter") return;
  // With drawings to choose from, Enter plays the marked one (and space cycles them).
  if (document.querySelector("#picker > .choices .move-choice:not(.plain)")) return;
  e.preventDefault();
  e.stopPropagation(); // not also the page's Enter, which plays a marked choice
  const cell = node.dataset.cell;
  node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const again = boardBox.querySelector(`[data-cell="${CSS.escape(cell)}"][tabindex]`);
  if (again) again.focus(); // the board is redrawn: keep the place
});
document.addEventListener("keydown", (e) => {
  if (lookingAt) { if (e.key === "Escape") backToGame(); return; } // an earlier board: no moves
  if (interaction && interaction.key) interaction.key(e);
  else cycleKey(e);
  if (e.key === "Escape") { selected = []; narrowTo(null); markBoard(); }
});
await preload(root.dataset.module);
render(view);
watchLetters(boardBox, document.getElementById("colour-letters"));
connect();
setInterval(tickClocks, 100);
