// Times written by the server in UTC (<time datetime="…Z" data-local>) shown in the reader's
// own time zone, in the page's language; the full date and time is kept in the title.
import { language } from "./i18n.js";

export function localTime(iso, withDate = false) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  const options = withDate
    ? { dateStyle: "medium", timeStyle: "short" }
    : { hour: "2-digit", minute: "2-digit" };
  return when.toLocaleString(language, options);
}

export function localise(root = document) {
  for (const node of root.querySelectorAll("time[data-local]")) {
    const text = localTime(node.getAttribute("datetime"));
    if (text === null) continue;
    node.textContent = text;
    node.title = localTime(node.getAttribute("datetime"), true);
  }
}

localise();
