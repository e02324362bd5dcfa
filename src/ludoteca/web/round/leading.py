"""The computer's leading moves, shared by the bot workers with the server: a reply comes
within its level's time even when the operating system holds its worker up.

A search stops at its deadline, but only while its process runs. On a busy machine the bot
workers (at a lower priority than the server, :data:`.seats.WORKER_NICENESS`) are the first
held up: in one 50-member run at ``hard`` (``bench/club_budgets.py``, two cores kept busy
beside the club), a stall of the whole machine of about a second held a dozen searches at
once, which then ended 0.2-0.8 s past their deadlines, and the replies' p99 went to 1.15 s
against the level's 1 s + 10%; the server, at its own priority, was held up far less.

So each search tells the move it leads with as it goes (:mod:`ludoteca.bots.progress`), into
a slot of memory shared with the server. When a worker's answer is late, the server plays the
move the search last led with (:meth:`.bots.BotRunner.think`), as strong as the search had
made it by then, and the worker's own answer, when it comes, is let go.

One slot per worker the pool may have, each a sequence number and a move's text; the numbers
make it a sequence lock: odd while the worker writes, so the server never reads half a move.
"""

from __future__ import annotations

from typing import Any

TEXT_BYTES = 120
"""The room for a move's text in a slot (UTF-8): a Comune turn is a dozen characters. A longer
move is not told, and its search is waited for as before."""


class LeadingMoves:
    """The slots, in shared memory made from the pool's multiprocessing ``context``, handed
    to every worker as it starts (:func:`.seats.start_worker`). The server takes a slot for
    each turn it hands over (:meth:`take`) and gives it back once that turn's worker has
    answered (:meth:`give_back`), never before: a late worker may still be writing in it."""

    def __init__(self, slots: int, context: Any) -> None:
        self.seqs = context.RawArray("q", slots)
        self.texts = context.RawArray("c", slots * TEXT_BYTES)
        self._free = list(range(slots - 1, -1, -1))

    def __getstate__(self) -> dict:
        # a worker gets the shared arrays only (the free list is the server's own)
        return {"seqs": self.seqs, "texts": self.texts, "_free": []}

    # --- the server's side ------------------------------------------------------------------
    def take(self) -> int | None:
        """A free slot, emptied; ``None`` when every slot is held by a worker still at work."""
        if not self._free:
            return None
        slot = self._free.pop()
        self._write(slot, b"")
        return slot

    def give_back(self, slot: int) -> None:
        self._free.append(slot)

    def read(self, slot: int) -> str | None:
        """The move last told in ``slot`` (``None``: none yet, or one being written)."""
        before = self.seqs[slot]
        if before & 1:
            return None
        start = slot * TEXT_BYTES
        raw = self.texts[start : start + TEXT_BYTES]
        if self.seqs[slot] != before:
            return None
        text = raw.rstrip(b"\0").decode("utf-8", "replace")
        return text or None

    # --- a worker's side -------------------------------------------------------------------
    def tell(self, slot: int, text: str) -> None:
        """Write ``text`` (a move in notation) into ``slot``: what the search now leads with."""
        data = text.encode()
        if data and len(data) <= TEXT_BYTES:
            self._write(slot, data)

    def _write(self, slot: int, data: bytes) -> None:
        """``data`` (at most :data:`TEXT_BYTES`; empty: nothing told) into ``slot``, its
        sequence number odd while it is written."""
        seq = self.seqs[slot] | 1
        self.seqs[slot] = seq
        start = slot * TEXT_BYTES
        self.texts[start : start + TEXT_BYTES] = data.ljust(TEXT_BYTES, b"\0")
        self.seqs[slot] = seq + 1
