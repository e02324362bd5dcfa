// The bell of every signed-in page: its unread count, kept live over /ws/me, and a short
// notice in the corner for each new notification. The socket only listens; it reconnects
// by itself after a drop, a little later each time. A turn in the game the page shows,
// while the page is in view, is no news: it is marked read (so no e-mail follows it) and
// not announced; a newer notice about the same page replaces the older one. A tournament
// pairing opens its game; one made while the socket was down comes as it connects.
import { language, t } from "./i18n.js";
const bell = document.getElementById("bell");
const count = document.getElementById("bell-count");
const toasts = document.getElementById("toasts");
let retry = 0;

function setCount(n) {
  count.textContent = String(n);
  count.hidden = n === 0;
  bell.setAttribute("aria-label", n ? t("Notifications: {n} unread", { n }) : t("Notifications"));
}

// A notice about the page the person is looking at (a game ending before their eyes) says
// what the page already shows, and would only cover part of it: it is counted, not shown.
function aboutThisPage(item) {
  try {
    return new URL(item.link, location.href).pathname === location.pathname;
  } catch {
    return false;
  }
}

function shownHere(item) {
  if (item.kind === "pairing") return aboutThisPage(item); // its game, opened: no news now
  return item.kind === "turn" && item.link === location.pathname &&
    document.visibilityState === "visible";
}

// A tournament pairing on a live clock opens its game at once, from the tournament's page or
// a game page (the game just finished), as an arena would: the clock may already be running.
// The server says which do (`opens`); a correspondence pairing waits to be opened.
function opensByItself(item) {
  return item.kind === "pairing" && item.opens === true &&
    /^\/(tournaments|games)\//.test(location.pathname) && item.link !== location.pathname;
}

// What a notification does by itself on this page: marked read where it is no news here, or
// its game opened; false where it is left to the bell and a notice.
function actedOn(item) {
  if (shownHere(item)) { markRead(item); return true; }
  if (opensByItself(item)) { location.assign(item.link); return true; }
  return false;
}

async function markRead(item) {
  try {
    const answer = await fetch(`/api/notifications/read?id=${encodeURIComponent(item.id)}`, {
      method: "POST",
      headers: { "X-CSRF-Token": bell.dataset.csrf || "" },
    });
    if (answer.ok) setCount((await answer.json()).unread);
  } catch {
    // the bell keeps its count; the notice stays unread
  }
}

function toast(item) {
  document.dispatchEvent(new CustomEvent("ludoteca:notification", { detail: item }));
  if (aboutThisPage(item)) return;
  for (const old of toasts.querySelectorAll(".toast")) {
    if (old.dataset.kind === item.kind && old.dataset.link === item.link) old.remove();
  }
  const box = document.createElement("div");
  box.className = "toast";
  box.dataset.kind = item.kind;
  box.dataset.link = item.link;
  const link = document.createElement("a");
  link.href = item.link;
  link.textContent = item.text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link";
  close.setAttribute("aria-label", t("Dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => box.remove());
  box.append(link, " ", close);
  toasts.append(box);
  setTimeout(() => box.remove(), 15000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me?lang=${encodeURIComponent(language)}`);
  socket.addEventListener("open", () => { retry = 0; });
  socket.addEventListener("message", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (data.type === "unread") setCount(data.unread);
    // A pairing made while this page had no socket (loading, or reconnecting after a drop)
    // comes as the socket opens: its game opens now, or is marked read if this is its page.
    if (data.type === "pairing") actedOn(data.item);
    if (data.type === "notification" && !actedOn(data.item)) {
      setCount(data.unread);
      toast(data.item);
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401 || event.code === 4403) return; // logged out: nothing to hear
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 500 * 2 ** retry);
  });
}

if (bell && count) connect();
