// A tournament page under way keeps its standings and pairings live: every few seconds it
// asks for the page again and puts the new part in place (nothing to refresh by hand). Being
// paired opens the game by itself: bell.js does that on every tournament and game page, and
// this page's next look does it too should that message be missed.
const EVERY_MS = 4000;
let live = document.getElementById("live");
// The game this page offered when it was opened: a member who came back here from it stays.
const shownGame = document.querySelector("#my-game a")?.getAttribute("href") || null;

async function refresh() {
  try {
    const answer = await fetch(location.pathname, { headers: { Accept: "text/html" } });
    if (!answer.ok) return;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.getElementById("live");
    // A pairing made since this page opened opens its game, even if the bell's message about
    // it was missed (its socket reconnecting at that moment).
    const paired = page.querySelector("#my-game a")?.getAttribute("href");
    if (paired && paired !== shownGame) {
      location.assign(paired);
      return;
    }
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
