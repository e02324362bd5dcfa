// A form's time-control fields: minutes and increment for a live clock, days for
// correspondence, none for an untimed game (the challenge form; the page draws the
// chosen one's fields shown, and this keeps them in step with the menu).
const clock = document.getElementById("clock-select");
function showClock() {
  for (const kind of ["live", "correspondence"]) {
    for (const el of document.querySelectorAll(`.clock-${kind}`)) {
      el.hidden = clock.value !== kind;
      for (const input of el.querySelectorAll("input")) input.disabled = clock.value !== kind;
    }
  }
}
if (clock) {
  clock.addEventListener("change", showClock);
  showClock();
}
