"""The errors this process logged lately, for the operator's page and the error counter.

A logging handler on the root logger keeps the last :data:`KEEP` records at ERROR or above
(their time, logger, message and request id, redacted like the logs), and counts them all.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime

from structlog.contextvars import get_contextvars

from ludoteca.web.ops.logs import redact

KEEP = 50


@dataclass(frozen=True)
class LoggedError:
    when: datetime
    logger: str
    message: str
    request_id: str | None
    kind: str | None
    """The exception's class name, if one was logged."""


class RecentErrors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: deque[LoggedError] = deque(maxlen=KEEP)
        self.count = 0
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = redact(record.getMessage())[:500]
        except Exception:  # noqa: BLE001 - a bad format string is still an error to show
            message = str(record.msg)[:500]
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else None
        entry = LoggedError(
            datetime.fromtimestamp(record.created, UTC),
            record.name,
            message,
            get_contextvars().get("request_id"),
            kind,
        )
        with self._guard:
            self.records.append(entry)
            self.count += 1

    def latest(self, n: int = 10) -> list[LoggedError]:
        with self._guard:
            return list(self.records)[-n:][::-1]


RECENT = RecentErrors()


def install() -> RecentErrors:
    """Attach :data:`RECENT` to the root logger (once per process)."""
    root = logging.getLogger()
    if RECENT not in root.handlers:
        root.addHandler(RECENT)
    return RECENT
