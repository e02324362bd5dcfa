// A game's course: each step's position comes from the server with its legal moves; a click
// is matched to those moves and sent back, and the engine's verdict is shown in words. A click
// that makes no legal move is sent as cells, and the engine says why it is refused. No rule
// lives here.
import { boardPage, el, postJson } from "./board_page.js";
import { preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("learn");
const game = root.dataset.game;
const total = Number(root.dataset.steps);
const member = Boolean(root.dataset.member);
const csrf = root.dataset.csrf;
const verdict = document.getElementById("verdict");
const moduleControls = document.getElementById("module-controls");
const key = `ludoteca.learn.${game}`;
const lang = `?lang=${encodeURIComponent(language)}`; // the page's language, for the answers too
let done = member ? Number(root.dataset.done) : Number(localStorage.getItem(key) || 0);
let step = Math.min(done + 1, total);
let solved = false;

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

// Only the step asked for last is shown: a step picked while an earlier one (the page's first)
// is still on its way is not overwritten when that one arrives.
let asked = 0;
async function load(n) {
  const ticket = ++asked;
  step = n;
  solved = false;
  say("");
  document.getElementById("next").hidden = true;
  const r = await fetch(`/api/learn/${game}/${n}${lang}`);
  const data = await r.json();
  await modulesReady; // the game's page module draws the step (Comino's rack)
  if (ticket !== asked) return;
  if (!r.ok) { say(data.error || ""); return; }
  document.getElementById("lesson-text").textContent = `${t("Step {n} of {total}", { n, total })}: ${data.text}`;
  root.dataset.step = String(n);
  show(data);
  markSteps();
}

const board = boardPage({
  boardBox: document.getElementById("board"),
  choices: document.getElementById("choices"),
  controls: moduleControls,
  sendMove: tryMove,
  showMessage: (m) => say(m),
  redraw: () => show(board.state.view),
  open: () => !solved,
  miss: (cells) => { whyNot(cells); },
  progress: () => say(""),
});

// A finger is told what a finger does (Comino: a tap picks a tile up), as on the game page.
const TOUCH = matchMedia("(pointer: coarse)");

function show(next, playable = true) {
  const hints = next.hints || {};
  const prompt = (TOUCH.matches && hints.prompt_touch) || hints.prompt;
  board.show(next, {
    playable,
    before: () => { if (prompt) moduleControls.append(el("p", { class: "hint" }, prompt)); },
  });
}

async function post(body) {
  return postJson(`/api/learn/${game}/${step}${lang}`, body, csrf, (error) => say(error || t("That move is refused.")));
}

async function whyNot(cells) {
  const data = await post({ cells });
  board.clear(); // the move is started afresh, as after any refusal
  if (data) say(data.reason || t("That move is refused."));
}

async function tryMove(text) {
  if (solved) return;
  const data = await post({ move: text });
  if (!data) return;
  if (!data.ok) { say(data.reason, false); board.clear(); return; }
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

const modulesReady = fetch(`/api/learn/${game}/1${lang}`).then((r) => r.json()).catch(() => ({}))
  .then((first) => preload(first.hints && first.hints.module));
document.getElementById("next").addEventListener("click", () => load(step + 1));
document.getElementById("retry").addEventListener("click", () => load(step));
for (const b of document.querySelectorAll(".step-link")) b.addEventListener("click", () => load(Number(b.dataset.step)));
load(step);
