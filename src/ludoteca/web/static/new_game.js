// The new-game form: show as many seats as the chosen game (and player count) needs, and the
// user-name or computer-level field each seat kind uses.
const game = document.getElementById("game-select");
const players = document.getElementById("players-select");
const label = document.getElementById("players-label");

function fillPlayers() {
  const opt = game.selectedOptions[0];
  if (!opt) return;
  const min = Number(opt.dataset.min), max = Number(opt.dataset.max);
  players.replaceChildren();
  for (let n = min; n <= max; n++) {
    const o = document.createElement("option");
    o.value = String(n); o.textContent = String(n);
    if (n === Math.min(max, Math.max(min, 2))) o.selected = true;
    players.append(o);
  }
  label.hidden = min === max;
  showSeats();
}

function showSeats() {
  const n = Number(players.value || game.selectedOptions[0].dataset.min);
  let computer = false;
  for (const row of document.querySelectorAll(".seat-row")) {
    const i = Number(row.dataset.seat);
    const on = i < n;
    row.hidden = !on;
    for (const input of row.querySelectorAll("select, input")) input.disabled = !on;
    const kind = row.querySelector(".seat-kind").value;
    row.querySelector(".seat-user").hidden = kind !== "user";
    row.querySelector(".seat-bot").hidden = kind !== "bot";
    computer ||= on && kind === "bot";
  }
  // The levels are described while a seat is the computer's.
  document.getElementById("levels-about").hidden = !computer;
}

game.addEventListener("change", fillPlayers);
players.addEventListener("change", showSeats);
for (const s of document.querySelectorAll(".seat-kind")) s.addEventListener("change", showSeats);
fillPlayers();

// The clock's fields: minutes and increment for a live clock, days for correspondence.
const clock = document.getElementById("clock-select");
function showClock() {
  for (const kind of ["live", "correspondence"]) {
    for (const el of document.querySelectorAll(`.clock-${kind}`)) {
      el.hidden = clock.value !== kind;
      for (const input of el.querySelectorAll("input")) input.disabled = clock.value !== kind;
    }
  }
}
clock.addEventListener("change", showClock);
showClock();
