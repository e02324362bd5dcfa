// The language menu: choosing a language sends the form at once (without scripts, its
// button does).
const form = document.querySelector("form.language-menu");
if (form) {
  const select = form.querySelector("select");
  const button = form.querySelector("button");
  if (button) button.hidden = true;
  select.addEventListener("change", () => form.submit());
}
