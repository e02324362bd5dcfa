// The page scripts' messages in the page's language. They come with the page (the JSON block
// "messages" that base.html writes from the same gettext catalogs as the server's text), so
// no text a person reads is fixed in a script. t("{n} moves", {n: 3}) fills {name} fields
// after translating; a message missing from the block is shown as written (English).
const block = document.getElementById("messages");
let table = {};
try {
  table = block ? JSON.parse(block.textContent || "{}") : {};
} catch (err) {
  table = {};
}

export function t(message, fields = {}) {
  const text = table[message] || message;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in fields ? String(fields[key]) : whole));
}

export const language = document.documentElement.lang || "en";
