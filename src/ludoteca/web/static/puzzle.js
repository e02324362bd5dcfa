// A puzzle: the board and its legal moves come from the server; the page matches clicks to
// them and sends the move back; the server says right or wrong (with the refuting line) and
// shows the answer. Streak mode (?streak=1) counts puzzles solved in a row in this browser
// (a member's streak is also kept by the server).
import { boardPage, postJson } from "./board_page.js";
import { preload } from "./interactions.js";
import { language, t } from "./i18n.js";

const root = document.getElementById("puzzle");
const id = root.dataset.id;
const member = Boolean(root.dataset.member);
const csrf = root.dataset.csrf;
const verdict = document.getElementById("verdict");
const lang = `?lang=${encodeURIComponent(language)}`;
const streakMode = new URLSearchParams(location.search).get("streak") === "1";
let over = false;

function say(text, kind = "") { verdict.textContent = text; verdict.className = `verdict ${kind}`; }

const board = boardPage({
  boardBox: document.getElementById("board"),
  choices: document.getElementById("choices"),
  controls: document.getElementById("module-controls"),
  sendMove: tryMove,
  showMessage: (m) => say(m, "wrong"),
  redraw: () => show(board.state.view),
  open: () => !over,
  miss: (cells) => { refuse(cells); },
});

function show(next, playable = true) {
  board.show(next, {
    playable,
    turn: true,
    // Set apart from the task: run on, "The move that scores most dark to move" misread.
    before: () => { document.getElementById("to-move").textContent = `· ${t("{side} to move", { side: next.side })}`; },
  });
}

async function post(body) {
  return postJson(`/api/puzzles/${id}${lang}`, body, csrf, (error) => say(error || t("That move is refused."), "wrong"));
}

async function refuse(cells) {
  const data = await post({ cells });
  board.clear();
  if (data) say(data.reason || t("That move is refused."), "wrong");
}

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
  if (data.refused) { say(data.reason, "wrong"); board.clear(); return; }
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
