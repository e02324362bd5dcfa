"""Helpers for the forum tests: write threads and replies as the browser's forms do."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlalchemy import create_engine, text

from tests.web.helpers import page_csrf


def age(url: str, name: str, by: timedelta) -> None:
    """Make the account ``name`` older (its ``created`` moves back)."""
    engine = create_engine(url)
    with engine.begin() as conn:
        created = conn.execute(
            text("SELECT created FROM users WHERE name = :n"), {"n": name}
        ).scalar_one()
        if isinstance(created, str):
            created = datetime.fromisoformat(created)
        conn.execute(
            text("UPDATE users SET created = :c WHERE name = :n"), {"c": created - by, "n": name}
        )
    engine.dispose()


def new_thread(client, title: str, body: str, category: str = "general"):
    return client.post(
        f"/forum/{category}/new",
        data={"csrf": page_csrf(client, "/forum"), "title": title, "body": body},
        follow_redirects=False,
    )


def thread_id(response) -> int:
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def reply(client, pk: int, body: str):
    return client.post(
        f"/forum/thread/{pk}/reply",
        data={"csrf": page_csrf(client, "/forum"), "body": body},
        follow_redirects=False,
    )


def post_ids(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'data-post-id="(\d+)"', html)]
