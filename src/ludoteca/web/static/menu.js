// On a phone the site's links fold into a menu, so the header is one row instead of three
// (about 150 px of an 844 px screen). Without scripts the links stay shown, as on a desktop.
const header = document.querySelector("header.top");
const button = document.getElementById("menu-button");
if (header && button) {
  header.classList.add("with-menu");
  button.hidden = false;
  button.addEventListener("click", () => {
    const open = !header.classList.contains("menu-open");
    header.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  });
}
