"""``/healthz`` and ``/readyz``, for a balancer or a process supervisor.

``/healthz`` says the process answers at all (nothing is read). ``/readyz`` says it can
serve: the database answers, its schema is at the newest migration this code knows, and the
process's background workers (the clock sweep, the watch for stalled computer turns, the
mail sender when there is one, and with PostgreSQL the listener for other processes'
changes) are running. Both are cheap, need no log-in, and are neither logged as traffic nor
counted in the request metrics (:data:`QUIET_PATHS`).
"""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from sqlalchemy import text

QUIET_PATHS = frozenset({"/healthz", "/readyz"})
router = APIRouter()


@cache
def newest_migration() -> str:
    """The head revision of the migrations shipped with this code."""
    from alembic.script import ScriptDirectory

    location = Path(__file__).resolve().parents[1] / "migrations"
    head = ScriptDirectory(str(location)).get_current_head()
    assert head is not None
    return head


@router.get("/healthz", include_in_schema=False)
async def healthz() -> PlainTextResponse:
    return PlainTextResponse("ok\n", headers={"Cache-Control": "no-store"})


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    club = request.app.state.club
    checks: dict[str, str] = {}

    def database() -> str:
        with club.store.read_connection() as conn:
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return "ok" if current == newest_migration() else f"migration {current}, not newest"

    try:
        with anyio.fail_after(5):
            checks["database"] = await anyio.to_thread.run_sync(database)
    except Exception as exc:  # noqa: BLE001 - any failure: not ready
        checks["database"] = f"not answering ({type(exc).__name__})"
    workers: dict[str, asyncio.Task | None] = getattr(request.app.state, "workers", {})
    for name, task in workers.items():
        checks[name] = "ok" if task is not None and not task.done() else "stopped"
    listener = club.hub.listener
    if listener is not None:
        checks["listener"] = "ok" if listener.connected.is_set() else "reconnecting"
    ready = all(value == "ok" for value in checks.values())
    return JSONResponse(
        {"ready": ready, "checks": checks},
        status_code=200 if ready else 503,
        headers={"Cache-Control": "no-store"},
    )
