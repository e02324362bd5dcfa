"""Playing a move on the game page with the pointer only, as a person does: clicks (taps on
a phone) on the board and on the buttons the page offers, and for Comino turning a rack
tile by its corners and dragging it onto its square.

The test reads the legal moves the server offers (``/api/games/PK``) to choose one, as its
referee; it never types notation into the page."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from playwright.sync_api import TimeoutError as PlaywrightTimeout

Hook = Callable[[object], None] | None

TRAFFIC_KEPT = 12
"""How many of the page's last requests (and console errors) a stuck click reports."""


def quoted(text: str) -> str:
    """``text`` as a CSS string (notation holds backslashes: Comune's ``a4\\``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def server_view(page, pk: int) -> dict:
    return page.evaluate("pk => fetch(`/api/games/${pk}`).then(r => r.json())", pk)


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def press(page, x: float, y: float, touch: bool) -> None:
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def cell_box(page, cell: str) -> dict:
    node = page.locator(f'#board [data-cell="{cell}"].cell').first
    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    assert box is not None, f"cell {cell} is not on the board"
    return box


def click_button(page, text: str, touch: bool, before_press: Hook = None) -> None:
    """Press a move's button once it stands still: the engine's drawings of the choices
    arrive a moment after the buttons and make them taller. ``before_press`` is called with
    the button first (the harness checks that it is in the window)."""
    button = page.locator(f"#picker .choices [data-move={quoted(text)}]:visible").first
    if before_press:
        button.wait_for()
        before_press(button)
    if touch:
        button.tap()
    else:
        button.click()


def comino_tile(page, move: dict, touch: bool):
    tile = page.locator(f'#board g.rack-tile[data-tile="{move["tile"]}"]').first
    tile.scroll_into_view_if_needed()
    return tile, tile.locator("rect").last.bounding_box()


def play_comino(page, move: dict, touch: bool, before_press: Hook = None) -> None:
    tile, box = comino_tile(page, move, touch)
    if move.get("remove"):
        press(page, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8, touch)
        button = page.locator("#remove-tile:visible")
        if before_press:
            button.wait_for()
            before_press(button)
        press(page, *centre(button.bounding_box()), touch)
        return
    if touch:  # a tap anywhere picks it up; buttons turn it; a tap on the square drops it
        press(page, *centre(box), touch)
        for _ in range(4):
            if tile.get_attribute("data-orientation") == move["orientation"]:
                break
            if before_press:
                before_press(page.locator("#turn-right"))
            page.locator("#turn-right").tap()
        assert tile.get_attribute("data-orientation") == move["orientation"]
        press(page, *centre(cell_box(page, move["cells"][0])), touch)
        return
    for _ in range(4):  # the top-right corner turns it clockwise
        if tile.get_attribute("data-orientation") == move["orientation"]:
            break
        press(page, box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15, touch)
    assert tile.get_attribute("data-orientation") == move["orientation"]
    target = cell_box(page, move["cells"][0])
    tile, box = comino_tile(page, move, touch)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
    page.mouse.down()
    page.mouse.move(*centre(target), steps=6)
    page.mouse.up()


def play(page, move: dict, touch: bool, before_press: Hook = None) -> None:
    """Make ``move`` (an entry of the view's ``legal``) on the page by pointer;
    ``before_press`` sees each button the page asked for before it is pressed."""
    if "tile" in move:
        play_comino(page, move, touch, before_press)
        return
    if not move["cells"]:
        click_button(page, move["text"], touch, before_press)
        return
    ply = page.get_attribute("#play", "data-ply")
    for cell in move["cells"]:
        press(page, *centre(cell_box(page, cell)), touch)
        # The page takes the click (and, for a game sent compact, asks for the cell's moves)
        # before the next one: the cell is marked selected, or the move has gone.
        try:
            page.wait_for_function(SETTLED, arg=[cell, ply, move["text"]])
        except PlaywrightTimeout:
            raise AssertionError(
                f"the click on {cell} for {move['text']!r} at ply {ply} was not taken: "
                f"{what_the_page_showed(page)}"
            ) from None
    if (
        page.get_attribute("#play", "data-ply") == ply
        and page.locator(f"#picker .choices [data-move={quoted(move['text'])}]:visible").count()
    ):
        click_button(page, move["text"], touch, before_press)


SETTLED = """([cell, ply, text]) =>
  document.getElementById("play").dataset.ply !== ply
  || !!document.querySelector(`#board .cell.selected[data-cell="${CSS.escape(cell)}"]`)
     && (!!document.querySelector(`#picker > .choices [data-move="${CSS.escape(text)}"]`)
         || !!document.querySelector("#board .cell.target"))"""


def record_traffic(page) -> None:
    """Keep the page's last requests to the club's API and sockets (with their answers'
    status, or why they failed) and its console errors, for :func:`what_the_page_showed`."""
    kept: deque[str] = deque(maxlen=TRAFFIC_KEPT)
    page.traffic = kept

    def answered(response) -> None:
        if "/api/" in response.url:
            kept.append(f"{response.request.method} {response.url} -> {response.status}")

    page.on("response", answered)
    page.on(
        "requestfailed",
        lambda request: (
            "/api/" in request.url
            and kept.append(f"FAILED {request.method} {request.url}: {request.failure}")
        ),
    )
    page.on(
        "websocket",
        lambda socket: socket.on("close", lambda _: kept.append(f"socket closed: {socket.url}")),
    )
    page.on(
        "console",
        lambda message: (
            message.type in ("error", "warning")
            and kept.append(f"console {message.type}: {message.text}")
        ),
    )
    page.on("pageerror", lambda error: kept.append(f"page error: {error}"))


SHOWN = """() => {
  const root = document.getElementById("play");
  const cells = (selector) => [...document.querySelectorAll(selector)].map((n) => n.dataset.cell);
  return {
    page_ply: root.dataset.ply, status: root.dataset.status, live: root.dataset.live,
    your_turn: document.getElementById("status").classList.contains("your-turn"),
    selected: cells("#board .cell.selected"),
    targets: cells("#board .cell.target").length,
    choices: [...document.querySelectorAll("#picker > .choices [data-move]")].map(
      (n) => n.dataset.move).slice(0, 12),
    message: document.getElementById("message").textContent,
  };
}"""


def what_the_page_showed(page) -> dict:
    """What a stuck page showed: its ply and the server's, the selected cells, how many
    targets, the choices offered, the message line, and its last requests and errors."""
    shown = page.evaluate(SHOWN)
    pk = page.url.rstrip("/").rsplit("/", 1)[-1]
    try:
        shown["server_ply"] = server_view(page, int(pk))["ply"] if pk.isdigit() else None
    except Exception as exc:  # the report must not hide the failure it reports
        shown["server_ply"] = f"unread: {exc}"
    shown["traffic"] = list(getattr(page, "traffic", ()))
    return shown


def choose(rng: random.Random, view: dict) -> dict:
    """A legal move, preferring ones on the board (so the board is what gets used)."""
    on_board = [m for m in view["legal"] if m["cells"] or "tile" in m]
    return rng.choice(on_board or view["legal"])
