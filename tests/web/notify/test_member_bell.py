"""A member's page reads their session and their bell's count in one statement: every page
shows the count, and two reads were two round trips to the database."""

from __future__ import annotations

import re

from sqlalchemy import event, select

from ludoteca.core.messages import Text
from ludoteca.web.infra.store import User
from ludoteca.web.notify.service import mark_read, notify
from tests.web.helpers import register
from tests.web.inprocess import club_in_process

BELL = re.compile(r'<span class="count" id="bell-count"( hidden)?>(\d+)</span>')


def test_a_members_page_reads_the_session_and_the_bell_together(url):
    with club_in_process(url) as client:
        assert register(client, "Bella").status_code == 303
        store = client.app.state.club.store
        with store.session() as db:
            bella = db.scalar(select(User).where(User.name == "Bella"))
            for n in range(3):
                notify(db, bella.id, "turn", Text("turn {n}", {"n": n}), "/")
            db.commit()
        statements: list[str] = []

        def count(conn, cursor, statement, parameters, context, executemany):
            statements.append(statement)

        event.listen(store.engine, "before_cursor_execute", count)
        try:
            page = client.get("/rules")
        finally:
            event.remove(store.engine, "before_cursor_execute", count)
        assert page.status_code == 200
        assert BELL.search(page.text).groups() == (None, "3")
        reads = [s for s in statements if "count(" in s.lower() and "notifications" in s]
        assert len(reads) == 1 and "sessions" in reads[0], statements
        with store.session() as db:
            mark_read(db, bella.id)
            db.commit()
        assert BELL.search(client.get("/rules").text).groups() == (" hidden", "0")
