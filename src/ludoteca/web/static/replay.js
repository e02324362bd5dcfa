import { watchLetters } from "./letters.js";
import { t } from "./i18n.js";

// The replay page: step through a finished game with the buttons or the arrow keys.
// Each step's board and position come from the server, which replays the record.
const root = document.getElementById("replay");
const id = root.dataset.id;
// The plies the replay stops at: every move, except that a run of the table's draws (the
// deal) is one step. Buttons and keys move by steps; the page shows the step's number.
const steps = JSON.parse(root.dataset.steps);
// Each step's move number among the players' own moves (the table's draws are not counted),
// as the game log and the computer review number them.
const numbers = JSON.parse(root.dataset.numbers || "[]");
const last = steps.length - 1;
const board = document.getElementById("board");
const cache = new Map();
// The step last asked for. Every press counts from it at once, before its board has arrived,
// so quick presses are never lost; a board that arrives after a later press is not shown.
let at = 0; // the step asked for last
const slider = document.getElementById("replay-slider");
slider.max = String(last);
slider.addEventListener("input", () => step(Number(slider.value)));

function load(n) {
  if (!cache.has(n)) {
    const request = fetch(`/api/games/${id}/replay/${n}`).then((r) => {
      if (!r.ok) throw new Error(`step ${n}: ${r.status}`);
      return r.json();
    });
    request.catch(() => cache.delete(n)); // asked again next time
    cache.set(n, request);
  }
  return cache.get(n);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A step whose board could not be fetched (a dropped connection, a busy server) is asked for
// again a few times while it is still the one wanted, so a press is never silently lost.
async function fetchStep(k) {
  const n = steps[k];
  for (let attempt = 0; ; attempt++) {
    try {
      return await load(n);
    } catch {
      if (k !== at) return null;
      if (attempt >= 4) {
        document.getElementById("replay-last").textContent = t("This move could not be loaded; press again.");
        return null;
      }
      await pause(250 * 2 ** attempt);
      if (k !== at) return null;
    }
  }
}

async function step(k) {
  k = Math.max(0, Math.min(last, k));
  at = k;
  const n = steps[k];
  const data = await fetchStep(k);
  if (data === null || k !== at) return; // failed, or a later press asked for another step
  board.innerHTML = data.svg;
  for (const cell of data.last_cells || []) {
    for (const node of board.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) node.classList.add("last-move");
  }
  slider.value = String(k);
  slider.setAttribute("aria-valuetext", t("move {n} of {last}", { n: numbers[k] ?? k, last: numbers[last] ?? last }));
  document.getElementById("replay-ply").textContent = String(numbers[k] ?? k);
  document.getElementById("replay-last").textContent = data.last ? t("last move: {move}", { move: data.last }) : t("start");
  document.getElementById("replay-summary").textContent = data.summary || "";
  document.getElementById("position").value = data.position;
  root.dataset.ply = String(n);
  const log = document.getElementById("replay-moves");
  for (const li of log.querySelectorAll("li")) {
    const here = Number(li.dataset.ply) === n;
    li.classList.toggle("current", here);
    if (here) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    if (here) { // into the log's view, without scrolling the page
      const top = li.offsetTop - log.offsetTop;
      if (top < log.scrollTop || top + li.offsetHeight > log.scrollTop + log.clientHeight) log.scrollTop = top - log.clientHeight / 2;
    }
  }
  // The address names the move shown, so that a link (or a reload) opens the game there.
  const url = new URL(location.href);
  if (n) url.searchParams.set("ply", String(n)); else url.searchParams.delete("ply");
  if (url.href !== location.href) history.replaceState(null, "", url);
}

document.getElementById("first").addEventListener("click", () => step(0));
document.getElementById("prev").addEventListener("click", () => step(at - 1));
document.getElementById("next").addEventListener("click", () => step(at + 1));
document.getElementById("last").addEventListener("click", () => step(last));
document.getElementById("replay-moves").addEventListener("click", (e) => {
  const a = e.target.closest("a[data-ply]");
  if (a) { e.preventDefault(); step(steps.indexOf(Number(a.dataset.ply))); }
});
document.addEventListener("keydown", (e) => {
  // Keys typed in a box (the position text, the slider, a form) are that box's own: arrows
  // move its caret or value there, never the replay.
  if (e.target.closest("textarea, input, select, [contenteditable]")) return;
  if (e.key === "ArrowRight") step(at + 1);
  else if (e.key === "ArrowLeft") step(at - 1);
  else if (e.key === "Home") step(0);
  else if (e.key === "End") step(last);
});
document.getElementById("copy-position").addEventListener("click", async () => {
  const text = document.getElementById("position").value;
  try { await navigator.clipboard.writeText(text); document.getElementById("copied").textContent = t("copied"); }
  catch { document.getElementById("position").select(); document.getElementById("copied").textContent = t("press Ctrl+C"); }
});
watchLetters(board, document.getElementById("colour-letters"));
// Opened at a move (a link made while stepping: ?ply=N) shows that move, else the start.
{
  const asked = Number(new URL(location.href).searchParams.get("ply"));
  let k = Number.isInteger(asked) && asked > 0 ? steps.findIndex((p) => p >= asked) : 0;
  step(k < 0 ? last : k);
}

// --- the computer review: its curve (click a point to go to that move) and its marks --------
const reviewBox = document.getElementById("review");
const analyseLink = document.getElementById("analyse-step");
function syncAnalyseLink() {
  if (analyseLink) analyseLink.href = analyseLink.href.replace(/ply=\d+/, `ply=${root.dataset.ply || 0}`);
}
new MutationObserver(syncAnalyseLink).observe(root, { attributes: true, attributeFilter: ["data-ply"] });

const NAMES = { blunder: t("Blunder"), mistake: t("Mistake"), inaccuracy: t("Inaccuracy") };
async function review() {
  const r = await fetch(`/api/games/${id}/review`);
  if (!r.ok) return;
  const data = await r.json();
  const status = document.getElementById("review-status");
  const form = document.getElementById("review-form");
  reviewBox.dataset.status = data.status;
  if (data.status === "none" || data.status === "failed") {
    status.textContent = data.status === "failed" ? t("The review failed; ask again.") : t("No review yet.");
    if (form) form.hidden = false;
    return;
  }
  if (form) form.hidden = true;
  if (data.status !== "done") {
    status.textContent = data.status === "queued" ? t("Waiting for the computer…") : t("Reviewing: {done} of {total} positions…", { done: data.done, total: data.total });
    setTimeout(review, 2000);
    return;
  }
  status.textContent = t("The line is the first player's expected result after each move (1 at the top). Click it to go to a move.");
  document.getElementById("review-curve").innerHTML = data.svg; // drawn by the club
  const list = document.getElementById("review-marks");
  list.replaceChildren();
  for (const m of data.marks) {
    const li = document.createElement("li");
    li.className = `mark ${m.kind}`;
    const a = document.createElement("a");
    a.href = "#";
    a.dataset.ply = m.ply;
    // numbered among the players' own moves (not the deal's draws) and named by who made it
    a.textContent = t("{kind} by {who}: move {number}, {move} (−{drop}%)", { kind: NAMES[m.kind], who: m.who ?? "", number: m.number ?? m.ply, move: m.move, drop: Math.round(m.drop * 100) });
    li.append(a);
    // the position before the mistake, puzzle-style: find a better move than the game's
    const better = document.createElement("a");
    better.className = "find-better";
    better.href = `/analysis/${root.dataset.game}?game=${id}&ply=${m.ply - 1}&find=${encodeURIComponent(m.move)}`;
    better.textContent = t("Find the better move");
    li.append(" · ", better);
    list.append(li);
    const entry = document.querySelector(`#replay-moves li[data-ply="${m.ply}"]`);
    if (entry) entry.classList.add(`marked-${m.kind}`);
  }
}
function jump(e) {
  const target = e.target.closest("[data-ply]");
  if (!target) return;
  e.preventDefault();
  const ply = Number(target.dataset.ply);
  let k = steps.indexOf(ply);
  if (k < 0) k = steps.findIndex((p) => p >= ply);
  step(k < 0 ? last : k);
}
if (reviewBox) {
  document.getElementById("review-curve").addEventListener("click", jump);
  document.getElementById("review-marks").addEventListener("click", jump);
  review();
}
