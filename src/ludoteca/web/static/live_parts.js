// Parts of a page that a notification changes: the rematch box of a finished game and the
// lobby's challenges. When the bell hears of a challenge or a rematch (from this server
// process or another), the page is read again and those parts are swapped in place, so an
// offer appears on the opponent's page as it is made. The player who offered a rematch is
// taken to the new game once it starts.
const parts = () => Array.from(document.querySelectorAll("[data-live-kinds]"));
let fetching = null;

async function refresh() {
  const before = new Map(parts().map((node) => [node.id, node]));
  const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const [id, node] of before) {
    const next = fresh.getElementById(id);
    if (!next) continue;
    const waited = node.querySelector("#rematch-waiting");
    node.innerHTML = next.innerHTML;
    // A part with nothing to show (data-empty) is hidden; the game page decides the rest.
    if (node.hasAttribute("data-empty") || next.hasAttribute("data-empty")) {
      node.hidden = next.hasAttribute("data-empty");
      node.toggleAttribute("data-empty", node.hidden);
    }
    const started = node.querySelector("[data-rematch-game]");
    if (waited && started) location.assign(`/games/${started.dataset.rematchGame}`);
  }
}

document.addEventListener("ludoteca:notification", (event) => {
  const kind = event.detail && event.detail.kind;
  if (!parts().some((node) => node.dataset.liveKinds.split(" ").includes(kind))) return;
  if (fetching) return;
  fetching = refresh().finally(() => { fetching = null; });
});
