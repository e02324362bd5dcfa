// The lobby's one-click play: the quick-pairing grid (a seek over /ws/seek, which lives as
// long as this page does; the page opens the game by itself once paired), the computer
// level the cards' "Play the computer" buttons use (remembered in this browser), and the
// live counts of people online and games in play.
import { t } from "./i18n.js";

const status = document.getElementById("seek-status");
const rated = document.getElementById("seek-rated");
let socket = null;
let pressed = null;
let pending = null;

function say(text) {
  if (status) status.textContent = text;
}

function press(cell) {
  for (const other of document.querySelectorAll(".seek-cell[aria-pressed=true]")) {
    other.setAttribute("aria-pressed", "false");
  }
  pressed = cell;
  if (cell) cell.setAttribute("aria-pressed", "true");
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return;
  }
  pending = message;
  if (socket && socket.readyState === WebSocket.CONNECTING) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/seek`);
  socket.addEventListener("open", () => {
    if (pending) socket.send(JSON.stringify(pending));
    pending = null;
  });
  socket.addEventListener("message", (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    if (data.type === "seeking") {
      say(t("Looking for an opponent… Press the same button again to stop."));
    } else if (data.type === "paired") {
      say(t("Opponent found: opening the game."));
      location.assign(data.url);
    } else if (data.type === "cancelled") {
      say(t("You stopped looking for an opponent."));
    } else if (data.type === "error") {
      press(null);
      say(data.message);
    }
  });
  socket.addEventListener("close", () => {
    socket = null;
    if (pressed) {
      press(null);
      say(t("The connection was lost: press the button again to look for an opponent."));
    }
  });
}

function seek(cell) {
  if (pressed === cell) {
    press(null);
    send({ type: "cancel" });
    return;
  }
  press(cell);
  send({
    type: "seek",
    game: cell.dataset.game,
    players: Number(cell.dataset.players),
    control: cell.dataset.control,
    rated: Boolean(rated && rated.checked),
  });
}

for (const cell of document.querySelectorAll(".seek-cell")) {
  cell.addEventListener("click", () => seek(cell));
}

// The computer level: the choice is kept for the next visit.
const level = document.getElementById("computer-level");
const about = document.getElementById("computer-level-about");
const LEVEL_KEY = "ludoteca.computerLevel";

function describe() {
  const option = level.selectedOptions[0];
  if (about && option) about.textContent = option.dataset.about || "";
}

if (level) {
  let kept = null;
  try {
    kept = localStorage.getItem(LEVEL_KEY);
  } catch {
    kept = null;
  }
  if (kept && [...level.options].some((o) => o.value === kept)) level.value = kept;
  describe();
  level.addEventListener("change", () => {
    describe();
    try {
      localStorage.setItem(LEVEL_KEY, level.value);
    } catch {
      // private browsing: the choice lasts this page
    }
  });
}

// The live counts.
const online = document.getElementById("online-count");
const playing = document.getElementById("playing-count");

async function refreshCounts() {
  if (document.visibilityState !== "visible") return;
  try {
    const answer = await fetch("/lobby/counts", { headers: { Accept: "application/json" } });
    if (!answer.ok) return;
    const numbers = await answer.json();
    online.textContent = String(numbers.online);
    playing.textContent = String(numbers.playing);
  } catch {
    // the numbers stay as they were
  }
}

if (online && playing) {
  // Once more soon after the page opens: the page's own socket has made its reader count as
  // online by then (the numbers drawn with the page were read before it was open).
  setTimeout(refreshCounts, 2500);
  setInterval(refreshCounts, 15000);
}
