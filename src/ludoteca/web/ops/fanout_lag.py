"""Measuring how long a notification takes from one server process to another.

Every :data:`PROBE_SECONDS` each process sends ``NOTIFY ludoteca_games, 'probe:<ms> <origin>'``
with the wall-clock time it sent it; every other process hears it through its listener
(as it hears game changes) and records the difference in ``ludoteca_fanout_lag_seconds``.
The figure includes any clock difference between machines (keep them on NTP); on one
machine it is the lag itself. Processes that predate the probe ignore it (an unknown kind).
"""

from __future__ import annotations

import asyncio
import logging
import time

import anyio
from sqlalchemy import text

from ludoteca.web.infra.fanout import CHANNEL

log = logging.getLogger("ludoteca.web")
PROBE_SECONDS = 5.0
KIND = "probe"


async def fanout_probe(hub, club, interval: float = PROBE_SECONDS) -> None:
    """Forever: send a probe through ``club``'s database, and record the ones other
    processes send (heard by ``hub``'s listener)."""
    metrics = club.metrics

    async def heard(sent_ms: int) -> None:
        metrics.fanout_lag.observe(max(0.0, time.time() - sent_ms / 1000))

    hub.event_handlers[KIND] = heard

    def send() -> None:
        with club.store.engine.begin() as conn:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{KIND}:{int(time.time() * 1000)} {hub.origin}"},
            )

    while True:
        try:
            await anyio.to_thread.run_sync(send)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the database away: the next probe retries
            log.warning("fan-out probe failed: %s", type(exc).__name__)
        await asyncio.sleep(interval)
