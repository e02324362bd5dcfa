// The course list: a visitor's progress is kept by this browser (a member's comes with the page).
import { t } from "./i18n.js";

const list = document.getElementById("courses");
if (list && !list.dataset.member) {
  for (const node of list.querySelectorAll(".learn-progress")) {
    const done = Number(localStorage.getItem(`ludoteca.learn.${node.dataset.game}`) || 0);
    node.textContent = t("{done} of {steps} steps", { done, steps: node.dataset.steps });
  }
}
