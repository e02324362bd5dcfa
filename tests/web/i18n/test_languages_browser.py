"""The club in German and in Japanese, in a real Chromium: a newcomer whose browser asks
for the language registers, creates a game against the computer, plays a few moves by
pointer, types a move the rules refuse and reads why, resigns, opens the replay and the
rules page. On every page, no text a person can see or hear (text, button labels, titles,
placeholders) is English, other than names and notation:

- no text equals an English message of the catalogs whose translation differs (the club's
  own words, left untranslated), nor matches one with its fields filled in;
- no text holds English words (a list of common English words for German, any Latin word
  but names and notation for Japanese).

A screenshot of each game page is kept beside the test's files (``game-LANG.png``)."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from babel.messages.pofile import read_po

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.core.registry import get as get_game
from ludoteca.web.i18n.catalogs import catalog_paths, language
from tests.web.browser import AGAINST_RANDOM, create, wait_my_turn_or_end
from tests.web.helpers import PASSWORD, started_club
from tests.web.pointer_play import choose, play, server_view

_names = itertools.count(1)
MEMBERS: set[str] = {"deplayer", "japlayer"}
"""The people these tests register (names are no English)."""
NOTATION = get_game("comune").new_state()
"""The game these tests play: its notation (``pass``, ``e5-``) is no English."""
WORD = re.compile(r"[A-Za-z](?:[A-Za-z'’-]*[A-Za-z])?")
FIELD = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)s")

VISIBLE_TEXTS = """() => {
  const out = [];
  const seen = (el) => el && el.checkVisibility && el.checkVisibility({ checkOpacity: true,
    checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (!text || n.parentElement.closest("script, style, textarea")) continue;
    if (seen(n.parentElement)) out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (!seen(el) && el.tagName !== "svg") continue;
    for (const a of ["title", "aria-label", "placeholder", "alt"]) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  for (const t of document.querySelectorAll("svg title")) out.push(t.textContent.trim());
  out.push(document.title);
  return out;
}"""

# Words that are the same in every language here: the games' and the club's names, the
# rating systems, the languages as the menu names them, time zones, the keys of a keyboard.
NAMES = {
    "ludoteca", "Comune", "Comino", "Kuniumi", "Hexagone", "Glicko", "OpenSkill", "Weng",
    "Lin", "English", "Deutsch", "UTC", "Lobby", "Forum", "Kanare", "Kato", "Panades",
    "Ignazio", "Corné", "Moorsel", "Professor", "Puzzle", "Enter", "Home", "End", "Tab",
}  # fmt: skip
ENGLISH_WORDS = {
    "the", "and", "you", "your", "with", "this", "that", "move", "moves", "game", "games",
    "play", "player", "players", "turn", "wins", "won", "lost", "not", "for", "from", "by",
    "to", "of", "is", "are", "no", "new", "log", "out", "register", "rules", "help", "replay",
    "waiting", "resign", "rated", "casual", "seat", "random", "light", "dark",
    "score", "scores", "rising", "falling", "horizontal", "draw", "table",
}  # fmt: skip


def english_messages(code: str) -> tuple[set[str], list[re.Pattern]]:
    """The catalog's English messages translated differently in ``code``: plain ones, and
    patterns for those with fields."""
    po_path, _ = catalog_paths(code)
    with po_path.open("rb") as f:
        catalog = read_po(f, locale=code)
    plain: set[str] = set()
    patterns: list[re.Pattern] = []
    for message in catalog:
        if not message.id or isinstance(message.id, tuple):
            continue
        translated = message.string if isinstance(message.string, str) else message.string[0]
        if translated == message.id or not re.search(r"[A-Za-z]{3,}", FIELD.sub("", message.id)):
            continue
        if FIELD.search(message.id):
            parts = FIELD.split(message.id)
            if sum(len(p.strip()) for p in parts) >= 8:  # enough words to say it is this one
                patterns.append(re.compile(".+?".join(re.escape(p) for p in parts), re.S))
        else:
            plain.add(message.id)
    return plain, patterns


def is_notation(text: str) -> bool:
    """Whether the engine reads ``text`` as a move: notation is the same in every language."""
    try:
        NOTATION.str_to_move(text)
    except GameError:
        return False
    return True


def english_in(texts: list[str], code: str, names: set[str]) -> list[str]:
    plain, patterns = english_messages(code)
    found = []
    allowed = {n.lower() for n in NAMES}
    people = [n.lower() for n in names]
    for text in texts:
        if text in plain or any(p.fullmatch(text) for p in patterns):
            found.append(text)
            continue
        words = [w for w in re.findall(WORD, text) if not is_notation(w)]
        if code == "ja":  # no Latin words at all, names and notation apart
            stray = [
                w
                for w in words
                if len(w) >= 3
                and w.lower() not in allowed
                and not any(p.startswith(w.lower()) for p in people)
            ]
        else:
            stray = [w for w in words if w.lower() in ENGLISH_WORDS and w.lower() not in allowed]
        if stray:
            found.append(f"{text!r} ({', '.join(stray)})")
    return found


def check_page(page, code: str, names: set[str]) -> None:
    assert page.get_attribute("html", "lang") == code
    texts = page.evaluate(VISIBLE_TEXTS)
    assert texts, "the page shows text"
    found = english_in(texts, code, names)
    assert not found, f"English on {page.url}: {found}"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "languages-browser", toy=False)
    yield srv
    srv.kill()


@pytest.mark.parametrize("code", ["de", "ja"])
def test_a_newcomer_plays_in_their_language(browser, club, code, tmp_path):
    words = language(code)
    context = browser.new_context(
        locale={"de": "de-DE", "ja": "ja-JP"}[code], viewport={"width": 1280, "height": 1000}
    )
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    name = f"{code}player{next(_names)}"
    MEMBERS.add(name)
    names = MEMBERS  # the lobby shows every member's games

    # A first visit: the browser's language, without choosing anything.
    page.goto(club.base + "/register")
    check_page(page, code, names)
    assert page.inner_text("h1") == words.gettext("Register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector(f'[data-user="{name}"]')
    check_page(page, code, names)  # the lobby

    page.goto(club.base + "/games/new?game=comune")
    check_page(page, code, names)
    pk = create(page, club.base, "comune", AGAINST_RANDOM)
    rng = random.Random(code)
    played: list[str] = []
    for _ in range(3):
        wait_my_turn_or_end(page, timeout=30000)
        view = server_view(page, pk)
        if view["status"] != "active":
            break
        move = choose(rng, {"legal": [m for m in view["legal"] if len(m["cells"]) == 1]})
        ply = page.get_attribute("#play", "data-ply")
        play(page, move, touch=False)
        page.wait_for_function(
            "old => document.getElementById('play').dataset.ply !== old", arg=ply
        )
        played.append(move["cells"][0])
    wait_my_turn_or_end(page, timeout=30000)
    check_page(page, code, names)
    page.screenshot(path=str(tmp_path / f"game-{code}.png"), full_page=True)

    # A refusal: a move typed onto a cell that is taken.
    page.click(".all-moves summary")
    page.fill(".all-moves input[name=move]", f"{played[0]}-")
    page.click(".all-moves button[type=submit]")
    page.wait_for_selector("#message:not([hidden])")
    refusal = page.inner_text("#message")
    why = Text("{CELL_NAMES} is occupied", {"CELL_NAMES": played[0]})
    typed = f"{played[0]}-"
    assert refusal == words.text(Text("Move {text!r} refused: {why}.", {"text": typed, "why": why}))
    check_page(page, code, names)

    page.click("#resign")
    page.wait_for_selector("#play[data-status='finished']")
    check_page(page, code, names)
    page.goto(f"{club.base}/games/{pk}/replay")
    page.wait_for_selector("#replay-moves li")
    check_page(page, code, names)
    page.goto(club.base + "/rules/comune")
    check_page(page, code, names)
    context.close()


def test_the_screenshots_show_japanese_glyphs(browser, club, tmp_path):
    """Japanese is drawn with real glyphs (a CJK font is installed), not empty boxes: the
    width of a line of kana differs from that of the same number of a glyph-less code point."""
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    page.goto(club.base + "/rules/comune")
    widths = page.evaluate(
        """() => {
          const c = document.createElement("canvas").getContext("2d");
          c.font = "20px sans-serif";
          return [c.measureText("あいうえお").width, c.measureText("\\u{10FFFD}".repeat(5)).width];
        }"""
    )
    assert widths[0] > 0 and abs(widths[0] - widths[1]) > 1, widths
    context.close()
