"""Looking at a game page as a person does, after every move of a game played by pointer.

A :class:`Look` is one game on one screen (``desktop`` 1280 × 800 or ``phone`` 390 × 844
with touch), in one theme and one language. After each move the harness runs every check
of :data:`PER_MOVE_CHECKS` on what the page DRAWS (see :mod:`tests.web.drawn`); a check is a
function of the :class:`Look` returning the offences it found, so adding one (the game log
in words, say) is one function appended to the list.

Screenshots: a few per game (its first move, its sixth, the choices of a half-made move,
its end, and any moment a check failed) go to :func:`looks_dir` (``LUDOTECA_LOOKS_DIR``, or
``var/looks/`` in the repository), named ``game-size-theme-lang-moment.png``, for a person
to browse after the run; the path is printed at the end of the run. With
``LUDOTECA_README_SCREENSHOTS=DIR`` the same run also writes the README's pictures there.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.web.drawn import (
    clipped_text,
    controls_out_of_view,
    panel_out_of_view,
    pieces_off_cells,
    small_touch_targets,
)
from tests.web.helpers import ROOT
from tests.web.sizes import LOCALES, SIZES, THEMES

GAMES = ("comune", "comino", "kuniumi", "hexagone")
FULL = os.environ.get("LUDOTECA_LOOK_FULL", "") not in ("", "0")
"""``LUDOTECA_LOOK_FULL=1``: every game on every screen, theme and language (48 games);
otherwise each game once per screen, the themes and languages rotated across them."""

TAKEN: list[Path] = []
"""Every picture this run took (the run's summary says where they are)."""

SHOT_AT_MOVE = 6
"""The player's move after which a game is photographed in mid-play (the README's moment)."""


def combinations(full: bool = FULL) -> list[tuple[str, str, str, str]]:
    """(game, size, theme, lang) to play: all of them, or a rotation covering each game on
    each screen, each theme on each screen, and each language, in eight games."""
    if full:
        return list(itertools.product(GAMES, SIZES, THEMES, LOCALES))
    langs = list(LOCALES)
    return [
        (game, size, THEMES[(i + j) % 2], langs[(2 * i + j) % 3])
        for i, game in enumerate(GAMES)
        for j, size in enumerate(SIZES)
    ]


def readme_combinations() -> list[tuple[str, str, str, str]]:
    """The games the README's pictures come from: each game on each screen, light, English;
    Comune on the desktop in German and Japanese too."""
    base = [(game, size, "light", "en") for game in GAMES for size in SIZES]
    return base + [("comune", "desktop", "light", lang) for lang in ("de", "ja")]


def looks_dir() -> Path:
    """Where the pictures go: kept after the run (pytest's temporary folders are not)."""
    chosen = os.environ.get("LUDOTECA_LOOKS_DIR")
    return Path(chosen) if chosen else ROOT / "var" / "looks"


@dataclass
class Look:
    """One game looked at: its page, screen, theme, language, and where its pictures go."""

    page: object
    game: str
    size: str
    theme: str
    lang: str
    shots: Path
    pk: int = 0
    view: dict = field(default_factory=dict)
    moves: int = 0
    taken: list[Path] = field(default_factory=list)

    @property
    def touch(self) -> bool:
        return self.size == "phone"

    @property
    def name(self) -> str:
        return f"{self.game}-{self.size}-{self.theme}-{self.lang}"

    def shoot(self, moment: str) -> Path:
        path = self.shots / f"{self.name}-{moment}.png"
        self.page.screenshot(path=str(path))
        self.taken.append(path)
        TAKEN.append(path)
        return path


@contextmanager
def window_moved_for_a_shot(page, y: str = "0"):
    """Scroll the window to ``y`` (a script expression) for a screenshot, then put it back
    where the page had put it: a control the page brought into view is checked there, and
    the harness's own scroll is not a person's (who would scroll back themselves)."""
    where = page.evaluate("() => [scrollX, scrollY]")
    page.evaluate(f"() => window.scrollTo(0, {y})")
    try:
        yield
    finally:
        page.evaluate("([x, y]) => window.scrollTo(x, y)", where)


def finish_animations(page) -> None:
    """Bring every animation that ends to its end (a spinner turns for ever: left alone)."""
    page.evaluate(
        """() => { for (const a of document.getAnimations()) {
            if (a.effect && isFinite(a.effect.getComputedTiming().endTime)) a.finish(); } }"""
    )


def pieces_on_their_cells(look: Look) -> list:
    """Every drawn piece, tile and die that names a cell lies inside it: as the last move
    arrives (its animation running) and once it has."""
    arriving = pieces_off_cells(look.page)
    finish_animations(look.page)
    return [("arriving", o) for o in arriving] + [
        ("arrived", o) for o in pieces_off_cells(look.page)
    ]


ASKED_NOW = """() => !document.querySelector('#board .cell.target')"""


def asked_controls_in_view(look: Look) -> list:
    """The buttons the page asks for now are in the window: a half-made move's choices, the
    game's own buttons, and the moves that name no cell when the board offers no target."""
    found = controls_out_of_view(
        look.page, "#picker > .choices .move-choice:not(.plain), #controls button:not([hidden])"
    )
    if look.view.get("your_turn") and look.page.evaluate(ASKED_NOW):
        found += controls_out_of_view(look.page, "#picker > .choices .move-choice.plain")
    return found


def no_clipped_text(look: Look) -> list:
    """No text cut: SVG text inside its drawing, HTML text inside its box and the page."""
    return clipped_text(look.page, "main")


def panel_in_view(look: Look) -> list:
    """The board's side panel (whose turn, the dice, the piles) shows whole inside the
    board's box, where the board pans too: a player reads the dice to know what to swap."""
    return panel_out_of_view(look.page)


def finger_sized_targets(look: Look) -> list:
    """On a phone, what a finger presses is at least 44 px both ways."""
    return small_touch_targets(look.page) if look.touch else []


LOG_ENTRIES = """() => [...document.querySelectorAll('[data-game-log] > li[data-ply]')].map(li => [
    Number(li.dataset.ply), (li.querySelector('.words') || li).textContent.trim()])"""


def every_move_told_in_the_log(look: Look) -> list:
    """The log beside the board tells each move played so far in the engine's words: one
    entry per step (a run of the table's draws is one), the last at the game's newest move,
    and every player's move in words, not the notation's fallback (``side: move``)."""
    moves = look.view.get("moves") or []
    if not moves or look.page.get_attribute("#play", "data-ply") != str(look.view.get("ply")):
        return []  # nothing played yet, or the page is a moment behind the server
    entries = look.page.evaluate(LOG_ENTRIES)
    steps = [
        m
        for i, m in enumerate(moves)
        if not (m["player"] < 0 and i + 1 < len(moves) and moves[i + 1]["player"] < 0)
    ]
    found = []
    if [ply for ply, _ in entries] != [m["ply"] for m in steps]:
        found.append(("entries", [p for p, _ in entries][-5:], [m["ply"] for m in steps][-5:]))
    for (ply, words), move in zip(entries, steps, strict=False):
        if move["player"] >= 0 and (not words or words == f"{move['side']}: {move['text']}"):
            found.append(("not in words", ply, words))
    return found


PER_MOVE_CHECKS: list[Callable[[Look], list]] = [
    pieces_on_their_cells,
    asked_controls_in_view,
    no_clipped_text,
    panel_in_view,
    finger_sized_targets,
    every_move_told_in_the_log,
]
"""Run after every move the page shows (the player's and the other side's)."""


def check_now(look: Look, checks: list[Callable[[Look], list]] | None = None) -> None:
    """Run the checks; on any offence, photograph the page and fail saying what and where."""
    offences = {c.__name__: found for c in checks or PER_MOVE_CHECKS if (found := c(look))}
    if offences:
        shot = look.shoot(f"FAILED-ply{look.view.get('ply')}")
        raise AssertionError(
            f"{look.name}, game {look.pk} at ply {look.view.get('ply')}: {offences} (see {shot})"
        )


def check_pressed(look: Look, control) -> None:
    """Before the harness presses a button the page asked for, it must be in the window
    where the page put it (the harness does not scroll to it)."""
    box = control.bounding_box()
    size = look.page.viewport_size
    assert box is not None, f"{look.name}: the control to press is not shown"
    inside = (
        box["y"] >= -0.5
        and box["x"] >= -0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
    )
    if not inside:
        shot = look.shoot(f"FAILED-out-of-view-ply{look.view.get('ply')}")
        raise AssertionError(f"{look.name}: {control} is outside the window: {box} (see {shot})")
    first = not any(p.stem.endswith("-choices") for p in look.taken)
    if first and control.evaluate("n => n.matches('.move-choice:not(.plain)')"):
        look.shoot("choices")  # the first half-made move's choices, as the player sees them
