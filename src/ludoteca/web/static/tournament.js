// A tournament page under way keeps its standings and pairings live: every few seconds it
// asks for the page again and puts the new part in place (nothing to refresh by hand). Being
// paired opens the game by itself: bell.js does that on every tournament and game page.
const EVERY_MS = 4000;
let live = document.getElementById("live");

async function refresh() {
  try {
    const answer = await fetch(location.pathname, { headers: { Accept: "text/html" } });
    if (!answer.ok) return;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.getElementById("live");
    if (fresh) {
      live.replaceWith(fresh);
      live = fresh;
    }
  } catch {
    // offline for a moment: the next look tries again
  }
}

async function loop() {
  while (live && !["finished", "cancelled"].includes(live.dataset.status)) {
    await new Promise((done) => setTimeout(done, EVERY_MS));
    await refresh();
  }
}

loop();
