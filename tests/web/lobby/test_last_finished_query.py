"""The lobby's last finished games are read in order from an index, not sorted: through the
index on the status alone, SQLite sorted every finished game of the club for each lobby
(470 ms with a million of them)."""

from __future__ import annotations

from sqlalchemy import text

from ludoteca.web.infra.store import Store
from ludoteca.web.lobby.routes import LAST_FINISHED


def test_the_last_finished_games_come_in_order_from_an_index(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        with store.engine.connect() as conn:
            compiled = LAST_FINISHED.compile(conn, compile_kwargs={"literal_binds": True})
            plan = " ".join(
                str(row[-1]) for row in conn.execute(text(f"EXPLAIN QUERY PLAN {compiled}"))
            )
    finally:
        store.dispose()
    assert "ix_games_status_finished" in plan, plan
    assert "TEMP B-TREE" not in plan, plan
