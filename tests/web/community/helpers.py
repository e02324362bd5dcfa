"""Helpers for the community tests: forms and JSON as the pages send them."""

from __future__ import annotations

from tests.web.helpers import page_csrf


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
