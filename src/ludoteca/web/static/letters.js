// Colour-blind-safe boards: a setting that writes each coloured piece's letter on it (the
// letter the engine gives the colour in its drawing: data-colour, or a corner-X class), so
// Comino's red, yellow and blue and Hexagone's seven colours differ by more than hue.
// The choice is kept by the browser ("ludoteca-letters").
const KEY = "ludoteca-letters";
const SVG_NS = "http://www.w3.org/2000/svg";

export function lettersOn() {
  return localStorage.getItem(KEY) === "on";
}

function colourOf(node) {
  if (node.dataset.colour) return node.dataset.colour;
  const match = (node.getAttribute("class") || "").match(/\bcorner-(\S+)/);
  return match ? match[1] : "";
}

function ink(fill) {
  const hex = (fill || "").trim().match(/^#([0-9a-f]{6})$/i);
  if (!hex) return "#000";
  const n = parseInt(hex[1], 16);
  const lum = 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
  return lum > 140 ? "#000" : "#fff";
}

export function label(box) {
  for (const old of box.querySelectorAll("text.colour-letter")) old.remove();
  if (!lettersOn()) return;
  for (const node of box.querySelectorAll("svg [data-colour], svg rect.corner")) {
    const colour = colourOf(node);
    if (!colour || !node.getBBox) continue;
    const b = node.getBBox();
    if (!b.width || !b.height) continue;
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("class", "colour-letter");
    text.setAttribute("x", String(b.x + b.width / 2));
    text.setAttribute("y", String(b.y + b.height / 2));
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "central");
    text.setAttribute("font-size", String(Math.min(b.width, b.height) * 0.55));
    text.setAttribute("font-weight", "700");
    text.setAttribute("fill", ink(node.getAttribute("fill")));
    text.setAttribute("pointer-events", "none");
    text.setAttribute("aria-hidden", "true");
    text.textContent = colour;
    node.after(text);
  }
}

// The checkbox, and keeping the letters right when the board is redrawn or a piece is
// repainted (Comino's tiles turn in place).
export function watchLetters(box, checkbox) {
  let pending = false;
  const again = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; observer.disconnect(); label(box); observe(); });
  };
  const observer = new MutationObserver(again);
  const observe = () => observer.observe(box, { subtree: true, childList: true, attributes: true, attributeFilter: ["fill", "class"] });
  if (checkbox) {
    checkbox.checked = lettersOn();
    checkbox.addEventListener("change", () => {
      localStorage.setItem(KEY, checkbox.checked ? "on" : "off");
      again();
    });
  }
  observe();
  again();
}
