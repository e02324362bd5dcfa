// A game may bring its own page module (named by its hints, served from the game's package
// at /play-modules/<name>.js) on top of the generic click-and-pick interaction. A module
// only arranges the server's structured moves for a more natural click; none decides what is
// legal. Modules load once, on first use; the page renders again when one arrives.
const loaded = new Map(); // module name -> its factory, or null if it failed to load

export function interactionFor(view, ctx, onLoaded) {
  const name = view.hints && view.hints.module;
  if (!name) return null;
  if (loaded.has(name)) {
    const make = loaded.get(name);
    return make ? make(view, ctx) : null;
  }
  loaded.set(name, null);
  import(`/play-modules/${encodeURIComponent(name)}.js`)
    .then((mod) => { loaded.set(name, mod.default || null); onLoaded(); })
    .catch(() => loaded.set(name, null));
  return null;
}
