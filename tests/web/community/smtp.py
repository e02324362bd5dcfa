"""A real SMTP server for the tests: aiosmtpd's controller on a free loopback port, keeping
every message it receives."""

from __future__ import annotations

import email
import time
from email.message import Message

import pytest

from tests.web.helpers import free_port


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.raw: list[bytes] = []
        """Each message's bytes as they arrived (``messages`` re-serialised would refold)."""

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.raw.append(envelope.content)
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def wait_for(self, count: int, seconds: float = 20) -> list[Message]:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.messages) >= count, f"{len(self.messages)} e-mails, wanted {count}"
        return self.messages


@pytest.fixture(scope="module")
def smtp():
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.url = f"smtp://127.0.0.1:{controller.port}?from=club@ludoteca.test"  # type: ignore[attr-defined]
    yield inbox
    controller.stop()
