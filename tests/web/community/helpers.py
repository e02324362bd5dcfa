"""Helpers for the community tests: forms and JSON as the pages send them."""

from __future__ import annotations

from tests.web.helpers import move, page_csrf, view


def form(client, path: str, page: str = "/", **data):
    return client.post(path, data={"csrf": page_csrf(client, page), **data}, follow_redirects=False)


def challenge(client, name: str, game: str = "toy", **extra):
    return form(client, "/challenges", "/challenges", name=name, game=game, **extra)


def api(client, path: str, body: dict):
    return client.post(path, json=body, headers={"X-CSRF-Token": page_csrf(client)})


def notes(client) -> dict:
    r = client.get("/api/notifications")
    assert r.status_code == 200, r.text
    return r.json()


def pending_ids(client, box: str) -> list[int]:
    import re

    page = client.get("/challenges").text
    section = page.split(f'id="{box}"', 1)[1].split("</ul>", 1)[0]
    return [int(x) for x in re.findall(r'class="challenge" data-id="(\d+)"', section)]


def finish(a, b, game: int) -> dict:
    """Play two people's toy game to its end, each taking the first legal move in turn;
    returns the last view (asserting the game ended)."""
    for _ in range(12):
        state = view(a, game)
        if state["status"] == "finished":
            return state
        mover = a if state["your_turn"] else b
        assert move(mover, game, view(mover, game)["legal"][0]["text"]).status_code == 200
    state = view(a, game)
    assert state["status"] == "finished"
    return state


def accepted(challenger, challenged, **settings) -> int:
    """A challenge sent and accepted: the number of the game it started."""
    challenge(challenger, challenged.name, **settings)
    [pk] = pending_ids(challenged, "incoming")
    return int(form(challenged, f"/challenges/{pk}/accept").headers["location"].rsplit("/", 1)[1])
