// The replay page: step through a finished game with the buttons or the arrow keys.
// Each step's board and position come from the server, which replays the record.
const root = document.getElementById("replay");
const id = root.dataset.id;
const total = Number(root.dataset.total);
const board = document.getElementById("board");
const cache = new Map();
let ply = 0;

async function step(n) {
  n = Math.max(0, Math.min(total, n));
  let data = cache.get(n);
  if (!data) {
    const r = await fetch(`/api/games/${id}/replay/${n}`);
    if (!r.ok) return;
    data = await r.json();
    cache.set(n, data);
  }
  ply = n;
  board.innerHTML = data.svg;
  document.getElementById("replay-ply").textContent = String(n);
  document.getElementById("replay-last").textContent = data.last ? `last move: ${data.last}` : "start";
  document.getElementById("replay-summary").textContent = data.summary || "";
  document.getElementById("position").value = data.position;
  root.dataset.ply = String(n);
  for (const li of document.querySelectorAll("#replay-moves li")) {
    li.classList.toggle("current", Number(li.dataset.ply) === n);
  }
}

document.getElementById("first").addEventListener("click", () => step(0));
document.getElementById("prev").addEventListener("click", () => step(ply - 1));
document.getElementById("next").addEventListener("click", () => step(ply + 1));
document.getElementById("last").addEventListener("click", () => step(total));
document.getElementById("replay-moves").addEventListener("click", (e) => {
  const a = e.target.closest("a[data-ply]");
  if (a) { e.preventDefault(); step(Number(a.dataset.ply)); }
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") step(ply + 1);
  else if (e.key === "ArrowLeft") step(ply - 1);
  else if (e.key === "Home") step(0);
  else if (e.key === "End") step(total);
});
document.getElementById("copy-position").addEventListener("click", async () => {
  const text = document.getElementById("position").value;
  try { await navigator.clipboard.writeText(text); document.getElementById("copied").textContent = "copied"; }
  catch { document.getElementById("position").select(); document.getElementById("copied").textContent = "press Ctrl+C"; }
});
step(0);
