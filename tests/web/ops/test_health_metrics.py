"""``/healthz``, ``/readyz`` and ``/metrics`` on a real club in this process: the health
checks answer without a log-in and are not counted as traffic; ``/metrics`` is refused to
the public and read with the operator's token; a move over a socket shows in the move
histogram at both stages."""

from __future__ import annotations

import json
import warnings

from prometheus_client.parser import text_string_to_metric_families

from ludoteca.web.app import create_app
from tests.web.helpers import legal_texts, page_csrf
from tests.web.inprocess import new_client, table_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "operator-secret-token-1234"


def samples(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def scrape(client) -> dict[tuple[str, tuple], float]:
    r = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


def states(ws) -> dict:
    while True:
        data = json.loads(ws.receive_text())
        if data["type"] in ("state", "error"):
            return data


def test_health_metrics_and_a_move(tmp_path):
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}", bot_pool="thread", metrics_token=TOKEN
    )
    with TestClient(app, raise_server_exceptions=False) as a:
        assert a.get("/healthz").text == "ok\n"
        ready = a.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["checks"]["database"] == "ok"
        assert ready.json()["checks"]["clock sweep"] == "ok"

        # the public (TestClient's address is no loopback) and a wrong token are refused
        assert a.get("/metrics").status_code == 403
        assert a.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 403

        b = new_client(a)
        b.portal = a.portal
        pk = table_game(a, b, "opsa", "opsb")
        with (
            a.websocket_connect(f"/ws/games/{pk}") as wa,
            b.websocket_connect(f"/ws/games/{pk}") as wb,
        ):
            va, vb = states(wa), states(wb)
            mover, ws, view = (a, wa, va) if va["your_turn"] else (b, wb, vb)
            before = scrape(a)
            assert before[("ludoteca_websockets_open", (("kind", "game"),))] == 2
            assert before[("ludoteca_games", (("status", "active"),))] == 1
            message = {
                "type": "move",
                "move": legal_texts(view)[0],
                "ply": view["ply"],
                "csrf": page_csrf(mover),
            }
            ws.send_text(json.dumps(message))
            assert states(ws)["ply"] == view["ply"] + 1
        # as an API client: the view, then a move (routes matched before the routers')
        for client in (a, b):
            view = client.get(f"/api/games/{pk}").json()
            if view["your_turn"]:
                move = {"move": legal_texts(view)[0], "ply": view["ply"]}
                headers = {"X-CSRF-Token": page_csrf(client)}
                moved = client.post(f"/api/games/{pk}/move", json=move, headers=headers)
                assert moved.json() == {"ok": True, "ply": view["ply"] + 1}
        assert client.head(f"/api/games/{pk}").status_code == 200
        assert client.put(f"/api/games/{pk}/move").status_code == 405
        after = scrape(a)
        for stage in ("stored", "sent"):
            key = ("ludoteca_move_seconds_count", (("stage", stage),))
            assert after[key] == before.get(key, 0) + 1
        stored = after[("ludoteca_move_seconds_sum", (("stage", "stored"),))]
        sent = after[("ludoteca_move_seconds_sum", (("stage", "sent"),))]
        assert 0 < stored <= sent < 5
        # requests by route template, never by raw path; health checks not counted
        routes = {dict(k[1]).get("route") for k in after if k[0] == "ludoteca_http_requests_total"}
        assert {"/games/{pk:id}/join", "/api/games/{pk:id}", "/api/games/{pk:id}/move"} <= routes
        assert not any(
            k[0] == "ludoteca_http_requests_total" and ("route", "/healthz") in k[1] for k in after
        )
        assert not any(f"/games/{pk}" in str(k) for k in after)


def test_metrics_from_allowed_addresses(tmp_path):
    """By default only this machine reads the metrics; the setting names others."""
    app = create_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", bot_pool="thread")
    with TestClient(app, client=("127.0.0.1", 5000)) as local:
        assert local.get("/metrics").status_code == 200
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}", bot_pool="thread", metrics_allow="10.0.0.0/8"
    )
    with TestClient(app, client=("10.1.2.3", 5000)) as inside:
        assert inside.get("/metrics").status_code == 200
    with TestClient(app, client=("127.0.0.1", 5000)) as local:
        assert local.get("/metrics").status_code == 403
