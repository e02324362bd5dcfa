"""The club's logs as an operator's tools read them: one JSON object per line, each request
with its id, route, status and user, records inside a game's request with the game's id,
an error's traceback once, and no password, session cookie or e-mail address anywhere."""

from __future__ import annotations

import io
import json
import logging

import pytest

from ludoteca.web.ops import logs
from tests.web.helpers import PASSWORD, create_game
from tests.web.inprocess import club_in_process

SECRET_MAIL = "somebody.private@example.org"


@pytest.fixture
def captured():
    stream = io.StringIO()
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    logs.configure("json", stream=stream)
    yield stream
    for handler in list(root.handlers):
        if getattr(handler, "_ludoteca", False):
            root.removeHandler(handler)
    root.handlers[:] = before[0]
    root.setLevel(before[1])


def test_json_lines_with_ids_and_nothing_secret(tmp_path, captured, monkeypatch):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        from tests.web.helpers import register

        assert register(client, "logger1").status_code == 303
        session = client.cookies.get("ludoteca_session")
        assert session
        pk = create_game(client, "toy", [("me", ""), ("open", "")])
        client.get(f"/games/{pk}")
        client.get("/healthz")
        client.get("/readyz")
        # a wrong password for a log-in, and a record quoting secrets as a careless
        # message might (an SMTP server's refusal names the address)
        client.post("/login", data={"name": "logger1", "password": "wrong-" + PASSWORD})
        logging.getLogger("ludoteca.web").warning(
            "e-mail to %s failed: password=%s via smtp://club:%s@mail.example.org",
            SECRET_MAIL,
            "hunter2x",
            "hunter2x",
            extra={"email": SECRET_MAIL},
        )
        stats = client.app.state.club.stats

        def broken() -> dict:
            raise RuntimeError("the figures could not be computed")

        monkeypatch.setattr(stats, "compute", broken)
        assert client.get("/stats", headers={"X-Request-ID": "req-abc.1"}).status_code == 500
    text = captured.getvalue()
    records = [json.loads(line) for line in text.splitlines()]  # every line is JSON
    requests = [r for r in records if r["event"] == "request"]
    assert requests and all(r["request_id"] and r["route"] is not None for r in requests)
    game = [r for r in requests if r["route"] == "/games/{pk:id}"]
    assert game and game[0]["game_id"] == pk and game[0]["user_id"] is not None
    assert game[0]["status"] == 200 and game[0]["level"] == "info"
    club_records = [r for r in records if r["logger"] != "httpx"]  # the test's own client
    assert not [r for r in club_records if "healthz" in str(r) or "readyz" in str(r)]
    errors = [r for r in records if r["level"] == "error"]
    assert len(errors) == 1, errors
    assert errors[0]["request_id"] == "req-abc.1"
    assert errors[0]["exception"].count("Traceback (most recent call last)") == 1
    assert "the figures could not be computed" in errors[0]["exception"]
    assert text.count("Traceback") == 1
    for secret in (PASSWORD, session, SECRET_MAIL, "hunter2x"):
        assert secret not in text


def test_plain_format_for_people():
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        logs.configure("plain", stream=stream)
        logging.getLogger("ludoteca.web").info("club started on %s", "port 8000")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    line = stream.getvalue().strip()
    assert "club started on port 8000" in line and not line.startswith("{")


def test_redact():
    assert logs.redact("to a.b+c@x.example.org now") == "to [e-mail] now"
    assert "hunter2" not in logs.redact("password=hunter2&x=1 token: abc")
    assert "abc" not in logs.redact("password=hunter2&x=1 token: abc")
    assert logs.redact("postgresql://club:pw@db/club") == "postgresql://club:[redacted]@db/club"


def test_plain_access_line_and_fast_redaction():
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        logs.configure("plain", stream=stream)
        logs._log_access("request", {"route": "/games/{pk:id}", "status": 200, "user_id": 3})
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    line = stream.getvalue().strip()
    assert "request" in line and "status=200" in line and "user_id=3" in line
    assert not line.startswith("{")
    # the quick tests that skip the slow searches must not let a secret through
    assert logs.redact("Session: abc") == "Session: " + logs.MASK
    assert logs.redact("nothing to hide here") == "nothing to hide here"


def test_warning_level_leaves_out_the_access_lines(tmp_path):
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        logs.configure("json", level=logging.WARNING, stream=stream)
        with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
            assert client.get("/").status_code == 200
            logging.getLogger("ludoteca.web").warning("still written")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    events = [json.loads(line)["event"] for line in stream.getvalue().splitlines()]
    assert "still written" in events and "request" not in events
