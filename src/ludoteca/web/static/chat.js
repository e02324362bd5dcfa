// The game page's chat: the lines of the channels this reader may see, sent live on the
// game's socket (game.js passes them on as "ludoteca:chat" events), and a line to write.
// Which channel a line goes to is the server's decision (players or spectators); so is
// who sees what.
import { sendOnSocket } from "./game.js";
import { t } from "./i18n.js";
import { localTime } from "./local_times.js";

const box = document.getElementById("chat");
const gameId = box.dataset.id;
const csrf = box.dataset.csrf;
const list = document.getElementById("chat-lines");
const form = document.getElementById("chat-form");
const note = document.getElementById("chat-note");
const mute = document.getElementById("chat-mute");
const me = box.dataset.me || null;
let status = box.dataset.status;
const shown = new Set();
let pending = null; // a line sent on the socket: the input keeps it until it comes back
let countdown = null;

function line(l) {
  if (shown.has(l.id)) return;
  shown.add(l.id);
  const li = document.createElement("li");
  li.className = `chat-line ${l.channel}`;
  li.dataset.id = l.id;
  const at = document.createElement("time");
  at.className = "muted";
  at.dateTime = l.time;
  at.textContent = localTime(l.time) || l.at; // the reader's own clock
  at.title = localTime(l.time, true) || "";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = l.author;
  const body = document.createElement("span");
  body.className = "body";
  body.textContent = l.body;
  li.append(at, " ", who, body);
  if (form && l.author !== me) { // one's own lines are not reported
    const report = document.createElement("button");
    report.type = "button";
    report.className = "link report";
    report.textContent = t("report");
    report.setAttribute("aria-label", t("Report this line by {name}", { name: l.author }));
    report.addEventListener("click", () => reportLine(l.id, li));
    li.append(report);
  }
  list.append(li);
  list.scrollTop = list.scrollHeight;
  if (pending !== null && l.author === me) { // our line is in: the input may be emptied
    if (form.elements.text.value.trim() === pending) form.elements.text.value = "";
    pending = null;
  }
}

// A refusal by the rate limit keeps the line in the input and counts the wait down live;
// the send button comes back when it is over.
function refused(message, seconds) {
  pending = null;
  clearInterval(countdown);
  if (!seconds) { say(message); return; }
  const button = form && form.querySelector("button[type=submit]");
  const end = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.ceil((end - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(countdown);
      if (button) button.disabled = false;
      say("");
      return;
    }
    if (button) button.disabled = true;
    say(t("You can write again in {seconds} s.", { seconds: left }));
    note.dataset.wait = String(left);
  };
  tick();
  countdown = setInterval(tick, 1000);
}

function say(text) {
  note.textContent = text;
  note.hidden = !text;
}

async function load() {
  const r = await fetch(`/api/games/${gameId}/chat`);
  if (!r.ok) return;
  const data = await r.json();
  list.replaceChildren();
  shown.clear();
  for (const l of data.lines) line(l);
  box.dataset.channels = data.channels.join(" ");
  if (mute) mute.checked = data.muted;
  box.dataset.loaded = "1";
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) refused(data.error || t("Refused."), Number(r.headers.get("Retry-After")) || 0);
  return r.ok;
}

async function reportLine(id, li) {
  const reason = prompt(t("Why should the moderators look at this line?"));
  if (!reason) return;
  if (await post(`/api/chat/${id}/report`, { reason })) {
    li.classList.add("reported");
    say(t("Reported: thank you. A moderator will look at it."));
  }
}

document.addEventListener("ludoteca:chat", (e) => line(e.detail));
document.addEventListener("ludoteca:chat-error", (e) => refused(e.detail.message, e.detail.retry_after));
document.addEventListener("ludoteca:view", (e) => {
  if (e.detail.status !== status) { status = e.detail.status; load(); } // channels open up at the end
});

if (form) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = form.elements.text;
    const text = input.value.trim();
    if (!text) return;
    say("");
    if (sendOnSocket({ type: "chat", text })) {
      pending = text; // emptied when the line comes back, kept if it is refused
      return;
    }
    if (!(await post(`/api/games/${gameId}/chat`, { text }))) return;
    input.value = "";
    load();
  });
}
if (mute) {
  mute.addEventListener("change", async () => {
    if (await post(`/api/games/${gameId}/chat/mute`, { muted: mute.checked })) load();
  });
}
load();
