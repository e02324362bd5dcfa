// A game may bring its own page module (named by its hints, served from the game's package
// at /play-modules/<name>.js) on top of the generic click-and-pick interaction. A module
// only arranges the server's structured moves for a more natural click; none decides what is
// legal. Modules load once: the page's own game's before the page starts (preload), any
// other on first use, the page rendering again when it arrives.
const loaded = new Map(); // module name -> its factory, or null if it failed to load

// The page loads its game's module before it first draws the board: a tap on a rack tile
// made before the module arrived would otherwise go to the generic board and be lost when
// the module's arrival draws the board again.
const loading = new Map(); // module name -> the promise of its arrival (or failure)
export function preload(name) {
  if (!name) return Promise.resolve();
  if (!loading.has(name)) {
    loading.set(name, import(`/play-modules/${encodeURIComponent(name)}.js`).then(
      (mod) => loaded.set(name, mod.default || null),
      () => loaded.set(name, null), // the generic interaction serves
    ));
  }
  return loading.get(name);
}

export function interactionFor(view, ctx, onLoaded) {
  const name = view.hints && view.hints.module;
  if (!name) return null;
  if (loaded.has(name)) {
    const make = loaded.get(name);
    return make ? make(view, ctx) : null;
  }
  if (!loading.has(name)) preload(name).then(() => { if (loaded.get(name)) onLoaded(); });
  return null;
}
